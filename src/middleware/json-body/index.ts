// Refuses a body that is not JSON on routes that take JSON (spec › Errors: 400 for a malformed body),
// and JSON that is not UTF-8 or nests deeper than MAX_JSON_DEPTH (src/lib/json-text.ts).
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../lib/errors';
import { checkJsonValue, decodeUtf8, parseJsonText } from '../../lib/json-text';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

export type JsonBodyOptions = {
  /** The body is optional (`required: false` on the route): a request with no body at all passes. */
  allowEmpty?: boolean;
  /**
   * Text that is not JSON is refused here with our own sentence ("The request body is not valid
   * JSON."), as the signing page's routes always answered, instead of by the validator after this.
   */
  refuseMalformed?: boolean;
};

export function requireJsonBody(options: JsonBodyOptions = {}): MiddlewareHandler {
  return async function requireJsonBodyMiddleware(c, next) {
    const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim();
    if (options.allowEmpty && !type && !c.req.raw.body) return next();
    if (!JSON_TYPE.test(type)) {
      throw new ApiError(400, `Send the request body as JSON with Content-Type: application/json${type ? ` (got ${type})` : ''}.`);
    }
    // Read through Hono's body cache, so the validator after this middleware parses the same bytes.
    const bytes = await c.req.arrayBuffer();
    if (options.allowEmpty && bytes.byteLength === 0) {
      // An optional body sent empty under a JSON type (clients that set the header on every request): read
      // as no body, as it is without the header, rather than refused as malformed JSON.
      const headers = new Headers(c.req.raw.headers);
      headers.delete('Content-Type');
      headers.delete('Content-Length');
      c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
      return next();
    }
    const text = decodeUtf8(bytes);
    if (options.refuseMalformed) {
      parseJsonText(text);
      return next();
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON at all: the validator answers its own 400.
      return next();
    }
    checkJsonValue(value);
    await next();
  };
}
