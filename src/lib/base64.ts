// Base64 of byte arrays, through btoa/atob: standard (RFC 4648 § 4) and base64url without padding (§ 5).

/** The bytes as base64; built in chunks, so a large array never overflows the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of a base64 text (atob throws on text that is not base64). */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** The bytes as base64url without padding (RFC 4648 § 5, the form of PKCE values and URL tokens). */
export function toBase64Url(bytes: Uint8Array | ArrayBuffer): string {
  return toBase64(new Uint8Array(bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text (padding optional), or null when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  try {
    return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}
