// Caps a request body by the bytes that arrive, not by what Content-Length claims: a chunked body
// without Content-Length is counted as it streams and refused (413 with a sentence) once past the cap,
// before any handler reads it. For the routes anyone may call without a credential (docs/security.md ›
// Identity: the sign-in forms, the MFA step) and, with their own caps, the signing routes (signing.limits.ts).
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError, type SignerSentence } from '../../lib/errors';

export type BodyCapOptions = {
  maxBytes: number;
  /** The sentence of the 413, e.g. "The form is too large. Sign-in forms are at most 16 KB." */
  message: string;
  /** On routes a signer meets: the catalog sentence their router answers in their language instead. */
  signer?: SignerSentence;
};

export function capBody(options: BodyCapOptions): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: options.maxBytes,
    onError: () => {
      const refused = new ApiError(413, options.message);
      if (options.signer) refused.signer = [options.signer];
      throw refused;
    },
  });
  return async function capBodyMiddleware(c, next) {
    // GET and HEAD carry no body worth reading; only methods that do are counted.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return limit(c, next);
  };
}
