import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';

type Operation = { security?: unknown[]; responses: Record<string, unknown>; parameters?: unknown[] };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

async function openapi(): Promise<Document> {
  const res = await api('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return res.json;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the API token security schemes', async () => {
    const doc = await openapi();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toMatchObject({
      ApiToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
      BearerToken: { type: 'http', scheme: 'bearer' },
    });
  });

  it('lists the foundation routes', async () => {
    const doc = await openapi();
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /user',
        'GET /users',
        'GET /users/{id}',
        'POST /users',
        'PUT /users/{id}',
        'DELETE /users/{id}',
        'GET /settings/account',
        'PUT /settings/account',
        'POST /access_tokens',
        'GET /access_tokens',
        'GET /access_tokens/{id}',
        'POST /access_tokens/{id}/revoke',
        'GET /audit_events',
      ]),
    );
  });

  it('declares security and the 401, 403 and 429 responses on every operation', async () => {
    const doc = await openapi();
    // Called by Stripe, which authenticates by signature (test/api/subscription-webhook.test.ts, test/payments/payment-settings.test.ts).
    const publicOperations = new Set([
      'POST /subscription/webhook',
      'POST /payments/webhook/{account_id}',
      'POST /sms/status/{account_id}/{message_id}',
    ]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (publicOperations.has(where)) {
          expect(op.security, where).toEqual([]);
          continue;
        }
        if (path.startsWith('/s/')) {
          // Signing page routes: no token, the slug is the credential; cross-origin and unverified → 403.
          expect(op.security, where).toEqual([]);
          for (const status of ['403', '404', '422']) expect(op.responses, `${where} ${status}`).toHaveProperty(status);
          continue;
        }
        if (path.startsWith('/l/')) {
          // Public document links: no credentials, the signed token is the authority; unknown → 404, lapsed → 410.
          expect(op.security, where).toEqual([]);
          for (const status of ['404', '410', '429']) expect(op.responses, `${where} ${status}`).toHaveProperty(status);
          continue;
        }
        expect(op.security, where).toBeTruthy();
        for (const status of ['401', '403', '429']) expect(op.responses, `${where} ${status}`).toHaveProperty(status);
        if (path.includes('{')) expect(op.responses, `${where} 404`).toHaveProperty('404');
        if (op.parameters?.length) expect(op.responses, `${where} 422`).toHaveProperty('422');
      }
    }
  });

  it('declares the headers every response carries, the rate-limit headers of authenticated operations and Retry-After on 429', async () => {
    const doc = (await openapi()) as Document & { components: { headers: Record<string, unknown> } };
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'X-API-Version',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]),
    );
    const headersOf = (path: string, method: string, status: string) =>
      Object.keys((doc.paths[path][method].responses[status] as { headers?: Record<string, unknown> }).headers ?? {});
    expect(headersOf('/templates', 'get', '200')).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    expect(headersOf('/templates', 'get', '429')).toContain('Retry-After');
    expect(headersOf('/templates', 'get', '200')).not.toContain('Retry-After');
    // A 401 is answered before the token is known, so it is not counted and carries no rate-limit headers.
    expect(headersOf('/templates', 'get', '401')).toEqual(['X-Request-Id', 'X-API-Version']);
    const anonymous = await api('GET', '/api/templates');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('X-RateLimit-Limit')).toBeNull();
    // The signing page's routes need no API token and carry no per-token limit.
    const signing = headersOf('/s/{slug}/open', 'post', '200');
    expect(signing).toContain('X-Request-Id');
    expect(signing).not.toContain('X-RateLimit-Limit');
    // What the document declares is what a response carries.
    const a = await createAccount();
    const res = await api('GET', '/api/templates', { token: a.token });
    for (const name of headersOf('/templates', 'get', '200')) expect(res.headers.get(name), name).not.toBeNull();
  });

  it('declares the same headers in the partner document', async () => {
    const res = await api('GET', '/api/partner/v1/openapi.json');
    const responses = Object.values(
      res.json.paths as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>,
    )
      .flatMap((item) => Object.values(item))
      .flatMap((op) => Object.entries(op.responses));
    expect(responses.length).toBeGreaterThan(0);
    for (const [status, response] of responses) {
      const expected = status === '401' ? ['X-Request-Id', 'X-API-Version'] : ['X-Request-Id', 'X-API-Version', 'X-RateLimit-Limit'];
      expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(expected));
    }
  });

  it('is browsable at /api/docs with assets served by the Worker', async () => {
    const page = await api('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/openapi.json');
    const script = await api('GET', '/vendor/swagger-ui/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('X-Request-Id')).toMatch(/^req_/);
  });
});
