// The Content-Disposition of a download: an ASCII fallback name and the exact name in RFC 5987 form
// (RFC 6266 §4.3), so no filename can break out of the header or lose its non-ASCII characters.

export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
