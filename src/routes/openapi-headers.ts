// The response headers the middleware adds to every response, declared in the OpenAPI documents so
// generated clients can read them: X-Request-Id and X-API-Version everywhere (spec › General
// conventions), X-RateLimit-* on authenticated operations' responses but 401, Retry-After on 429
// (spec › Limits).

type HeaderObject = { description: string; schema: { type: 'string' | 'integer' } };
type Response = { headers?: Record<string, unknown> } & Record<string, unknown>;
type Operation = { security?: unknown[]; responses?: Record<string, Response> };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': { description: 'Unique identifier of this request; quote it when reporting a problem.', schema: { type: 'string' } },
  'X-API-Version': { description: 'The API version that answered.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per rolling minute for this credential.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window has room again.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const EVERY_RESPONSE = ['X-Request-Id', 'X-API-Version'];
const RATE_LIMITED = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const OPERATION_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** The document with those headers added to its responses (in place) and declared once as components. */
export function withResponseHeaders<D>(document: D): D {
  const doc = document as Document;
  doc.components = { ...doc.components, headers: { ...(doc.components?.headers as object), ...HEADERS } };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!OPERATION_METHODS.has(method)) continue;
      // Operations with `security: []` (the signing page's routes, public documents) are not rate limited per credential.
      const limited = operation.security === undefined || operation.security.length > 0;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        // A 401 is answered before the credential is known, so before it is counted.
        const counted = limited && status !== '401';
        const names = [...EVERY_RESPONSE, ...(counted ? RATE_LIMITED : []), ...(status === '429' ? ['Retry-After'] : [])];
        response.headers = { ...Object.fromEntries(names.map((name) => [name, ref(name)])), ...response.headers };
      }
    }
  }
  return document;
}
