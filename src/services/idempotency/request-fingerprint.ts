// What makes two requests "the same" for an Idempotency-Key (spec › Limits › Idempotency rule 2).
import { sha256Hex } from '../../lib/crypto';

export type FingerprintInput = {
  method: string;
  /** The request path; `/api/v1/x` and `/api/x` are one operation (spec › Versioning rule 2). */
  path: string;
  /** The raw query string, `?…` or empty. */
  search: string;
  contentType: string | null;
  body: ArrayBuffer;
};

/** JSON with object keys sorted, so a client that re-serialises the same values is not refused. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Multipart bodies are compared by their parts, not their bytes: the boundary is random per attempt
 * in most clients, so byte equality would refuse every honest retry of an upload.
 */
async function canonicalForm(body: ArrayBuffer, contentType: string): Promise<string> {
  const form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  const parts: string[] = [];
  for (const [name, value] of form as unknown as Iterable<[string, string | File]>) {
    if (typeof value === 'string') parts.push(`${JSON.stringify(name)}=${JSON.stringify(value)}`);
    else
      parts.push(
        `${JSON.stringify(name)}=file:${JSON.stringify(value.name)}:${value.type}:${await sha256Hex(new Uint8Array(await value.arrayBuffer()))}`,
      );
  }
  return parts.join('&');
}

async function canonicalBody(contentType: string | null, body: ArrayBuffer): Promise<string> {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (body.byteLength > 0) {
    try {
      if (/^application\/([\w.-]+\+)?json$/.test(type)) return `json:${canonicalJson(JSON.parse(new TextDecoder().decode(body)))}`;
      if (type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded') {
        return `form:${await canonicalForm(body, contentType!)}`;
      }
    } catch {
      // Malformed: fall through to the bytes; the route's own validation answers 400 for it.
    }
  }
  return `bytes:${await sha256Hex(new Uint8Array(body))}`;
}

/** SHA-256 over method, path, query and body: a different value for a different request. */
export async function requestFingerprint(input: FingerprintInput): Promise<string> {
  const path = input.path === '/api/v1' || input.path.startsWith('/api/v1/') ? `/api${input.path.slice('/api/v1'.length)}` : input.path;
  return sha256Hex(`${input.method.toUpperCase()}\n${path}\n${input.search}\n${await canonicalBody(input.contentType, input.body)}`);
}
