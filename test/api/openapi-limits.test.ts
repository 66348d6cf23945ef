import { describe, expect, it } from 'vitest';
import { api } from '../helpers';

describe('OpenAPI document: limits', () => {
  it('documents Idempotency-Key and the 409 on create operations', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    const create = doc.paths['/access_tokens'].post;
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'idempotency-key', in: 'header' })]));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '422', '429']));
  });

  it('does not offer Idempotency-Key on reads', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(doc.paths['/access_tokens'].get.parameters.map((p: { name: string }) => p.name)).not.toContain('idempotency-key');
  });

  it('documents the checkout route', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(doc.paths['/subscription/checkout'].post.responses['200']).toBeDefined();
  });
});
