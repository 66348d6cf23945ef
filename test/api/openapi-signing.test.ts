// The signing page's JSON routes in the OpenAPI document come from their route declarations
// (src/routes/signing/signing.routes.ts): what the router serves and what the document lists agree.
import { describe, expect, it } from 'vitest';
import { mergePath } from 'hono/utils/url';
import { api } from '../helpers';
import { createSigningRoutes } from '../../src/routes/signing/signing.index';
import { SIGNING_PREFIX } from '../../src/routes/signing/signing.routes';

type Operation = {
  tags?: string[];
  security?: unknown[];
  servers?: { url: string }[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { required?: string[] } }> };
  responses: Record<string, unknown>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

/** The HTML page, the file downloads and the qes callback and retry (browser navigations): not JSON, so not in the document. */
const PAGES = [
  'GET /s/:slug',
  'GET /s/:slug/documents/:document_uuid',
  'GET /s/:slug/documents/:document_uuid/pages/:page',
  'GET /s/:slug/download',
  'GET /s/:slug/qes/callback',
  'GET /s/:slug/qes/retry',
];

async function signingOperations(): Promise<Map<string, Operation>> {
  const res = await api('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries((res.json as Document).paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.tags?.includes('Signing page')) operations.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, op);
    }
  }
  return operations;
}

/** Every method and path the signing router answers (middleware registered with `use` is not a route). */
function servedRoutes(): Set<string> {
  return new Set(
    createSigningRoutes()
      .routes.filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${mergePath(SIGNING_PREFIX, route.path)}`),
  );
}

describe('Signing page in the OpenAPI document', () => {
  it('lists exactly the routes the signing router serves, the HTML page and downloads aside', async () => {
    const served = servedRoutes();
    for (const page of PAGES) expect(served, page).toContain(page);
    const json = [...served].filter((route) => !PAGES.includes(route)).sort();
    expect(json.length).toBeGreaterThan(0);
    expect([...(await signingOperations()).keys()].sort()).toEqual(json);
  });

  it('declares each signing operation tokenless at the service root, with the slug and every refusal a signing route gives', async () => {
    for (const [where, op] of await signingOperations()) {
      expect(op.security, where).toEqual([]);
      expect(op.servers, where).toEqual([expect.objectContaining({ url: '/' })]);
      expect(op.parameters, where).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'slug', in: 'path' })]));
      for (const status of ['400', '403', '404', '413', '422', '429']) expect(op.responses, `${where} ${status}`).toHaveProperty(status);
    }
  });

  it('documents the body each route validates: required members are the ones it refuses without', async () => {
    const operations = await signingOperations();
    const required = (where: string) => operations.get(where)?.requestBody?.content['application/json'].schema.required ?? [];
    expect(required('POST /s/:slug/verification/check')).toEqual(['code']);
    expect(required('POST /s/:slug/delegate')).toEqual(['email']);
    expect(required('POST /s/:slug/invite_witness')).toEqual(['email']);
    expect(operations.get('POST /s/:slug/attachments')?.responses).toHaveProperty('201');
    expect(operations.get('POST /s/:slug/submit')?.responses).toHaveProperty('409');
  });
});
