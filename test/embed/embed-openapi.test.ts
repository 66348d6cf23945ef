// The embed routes in the OpenAPI document (issue 15 › 4): a Bearer JWT scheme of their own.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { sessionFor } from '../session-fixtures';

// any: a JSON Schema from the document, walked by hand.
type Schema = Record<string, any>;
type OpenApi = { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
const resolve = (doc: OpenApi, schema: Schema): Schema =>
  schema.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema;

type Doc = {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

describe('OpenAPI document: embedding', () => {
  it('declares the EmbedToken scheme as an HTTP bearer JWT', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json as Doc;
    expect(doc.components.securitySchemes.EmbedToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('puts every route an embed token calls under EmbedToken alone, and minting under the API credentials', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json as Doc;
    for (const [path, method] of [
      ['/embed/template/{id}', 'get'],
      ['/embed/template/{id}', 'put'],
      ['/embed/submission/{id}', 'get'],
      ['/embed/submission/{id}/values', 'put'],
      ['/embed/submission/{id}/complete', 'post'],
    ]) {
      expect(doc.paths[path][method].security, `${method} ${path}`).toEqual([{ EmbedToken: [] }]);
    }
    expect(doc.paths['/embed/token'].post.security).toEqual([{ ApiToken: [] }, { BearerToken: [] }]);
  });

  it('declares submitter_id on minting and 404/422 among its answers', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json as OpenApi;
    const mint = doc.paths['/embed/token'].post;
    const body = resolve(doc, mint.requestBody.content['application/json'].schema);
    expect(body.properties.submitter_id).toMatchObject({ type: 'integer', description: expect.stringContaining('next signer') });
    expect(body.required ?? []).not.toContain('submitter_id');
    expect(Object.keys(mint.responses)).toEqual(expect.arrayContaining(['201', '404', '422']));
  });

  it('declares the embedded submission’s signing links as optional, shown only to the token’s own signer', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json as OpenApi;
    const submission = resolve(
      doc,
      resolve(doc, doc.paths['/embed/submission/{id}'].get.responses['200'].content['application/json'].schema).properties.submission,
    );
    const submitter = resolve(doc, submission.properties.submitters.items);
    for (const key of ['slug', 'signing_url', 'embed_src']) {
      expect(submitter.properties[key], key).toBeDefined();
      expect(submitter.required).not.toContain(key);
    }
    expect(submitter.required).toContain('status');
  });
});

describe('a console session cookie on the embed routes', () => {
  it('is refused with 401: only an embed token works there', async () => {
    const f = await signingFixture();
    const session = await sessionFor(f.account);
    const res = await api('GET', `/api/embed/submission/${f.submissionId}`, { token: null, headers: session.cookie });
    expect(res.status).toBe(401);
  });
});
