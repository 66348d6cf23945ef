// Facts about the incoming request that the platform reports.
import { concatBytes } from './bytes';

/** The client address Cloudflare reports; the edge overwrites any caller-sent value. */
export function clientIp(request: Request): string | null {
  return request.headers.get('CF-Connecting-IP') ?? null;
}

/** Base URL for links in responses: APP_URL when configured, else the request's own origin. */
export function baseUrl(request: Request, appUrl?: string): string {
  return (appUrl || new URL(request.url).origin).replace(/\/+$/, '');
}

/**
 * Reads a body (a request's, or a response's from an outside server) of at most `cap` bytes, so a
 * chunked body without Content-Length cannot exhaust memory; past the cap it stops reading and throws
 * `tooLarge()`.
 */
export async function readBodyCapped(message: Pick<Request, 'body'>, cap: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!message.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = message.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
