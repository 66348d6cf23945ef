// Facts about the incoming request that the platform reports, and reading bodies (ours or an outside
// server's) within a cap.
import { concatBytes } from './bytes';
import { ApiError } from './errors';

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

/** The body as text, cut at `limit` characters (with … appended) without reading further. */
export async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > limit) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  if (!truncated) text += decoder.decode();
  return truncated ? `${text.slice(0, limit)}…` : text;
}

/**
 * A request's body as text, at most `cap` bytes however it arrives (Content-Length or chunked): past the
 * cap, 413 with `tooLargeMessage`. For routes anyone may call, where the body is read before any
 * credential in it can be checked (the Stripe webhooks verify a signature over the raw body).
 */
export async function readRequestText(request: Pick<Request, 'body'>, cap: number, tooLargeMessage: string): Promise<string> {
  return new TextDecoder().decode(await readBodyCapped(request, cap, () => new ApiError(413, tooLargeMessage)));
}
