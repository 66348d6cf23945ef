// The embed routes in the OpenAPI document (issue 15 › 4): a Bearer JWT scheme of their own.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { sessionFor } from '../session-fixtures';

type Doc = { paths: Record<string, Record<string, { security?: unknown[] }>>; components: { securitySchemes: Record<string, Record<string, unknown>> } };

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
});

describe('a console session cookie on the embed routes', () => {
  it('is refused with 401: only an embed token works there', async () => {
    const f = await signingFixture();
    const session = await sessionFor(f.account);
    const res = await api('GET', `/api/embed/submission/${f.submissionId}`, { token: null, headers: session.cookie });
    expect(res.status).toBe(401);
  });
});
