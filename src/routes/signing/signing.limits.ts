// What one signing link, and one client, may make the /s/* routes do (issue 21 › 5; docs/limits.md).
// The slug is the only credential there, so every JSON body is capped and every request is counted.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { clientIp } from '../../lib/request';
import { capBody } from '../../middleware/body-limit';
import { rateLimit } from '../../middleware/rate-limit';
import { MAX_ATTACHMENT_BYTES } from '../../services/signing/attachments';

/**
 * Bodies carrying field values (PUT /values, POST /submit): a drawn signature is a PNG data URL of
 * some tens of KB, and one picture value may be up to 512 KB (MAX_INLINE_IMAGE_BYTES, ~683 KB as
 * base64), so 1 MB holds a full form with its signature and a large picture.
 */
export const VALUES_BODY_BYTES = 1024 * 1024;
/** A multipart upload: the largest file allowed plus room for the form's other parts and boundaries. */
export const ATTACHMENT_BODY_BYTES = MAX_ATTACHMENT_BYTES + 64 * 1024;
/** Every other JSON body (a code, a reason, a name and an address): a few hundred bytes in use. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** "1 MB", "16 KB": a cap as the sentences and the OpenAPI document spell it. */
export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / 1024 / 1024)} MB` : `${Math.floor(bytes / 1024)} KB`;
}

/** Refuses a body over `maxBytes` with 413 before anything reads it (Content-Length, or counted as it streams). */
export function signingBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return capBody({
    maxBytes,
    message: `The request body is larger than ${describeBytes(maxBytes)}, the limit for this signing page request.`,
    signer: { key: 'signer_error.body_too_large', values: { size: describeBytes(maxBytes) } },
  });
}

/**
 * Requests per rolling minute for one signing link. A person filling a form makes a few per field (the
 * page autosaves 600 ms after the last change, so up to ~100 a minute while typing steadily); the cap
 * sits above that and far below what guessing or scraping through one link needs.
 */
export const SLUG_RATE_LIMIT = 120;
/** Requests per rolling minute from one client address across all links (an office behind one NAT). */
export const IP_RATE_LIMIT = 600;

/** The slug of a request under /s (the first path segment after it), counted before any lookup. */
function slugOf(c: Context<AppEnv>): string {
  return c.req.path.split('/')[2] ?? '';
}

/**
 * Per-address, then per-link limits on every /s/* request, through the RateLimiter Durable Object and
 * its leases (docs/limits.md), before any D1 read: an unknown slug counts too. 429 with Retry-After.
 */
export function signingRateLimits(): MiddlewareHandler<AppEnv>[] {
  return [
    rateLimit({
      key: (c) => `ip:${clientIp(c.req.raw) ?? 'unknown'}`,
      limit: IP_RATE_LIMIT,
      label: 'from your network address',
      headers: false,
      forSigners: true,
    }),
    rateLimit({
      key: (c) => `slug:${slugOf(c)}`,
      limit: SLUG_RATE_LIMIT,
      label: 'for this signing link',
      headers: false,
      forSigners: true,
    }),
  ];
}
