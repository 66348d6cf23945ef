// Template thumbnails: a GET serves a stored PNG or answers 202 and queues its document's batch (a read
// never starts a browser); POST …/generate_thumbnail queues one batch; widths round to the drawn ones;
// the queue consumer draws a batch with one launch; lists carry the URLs.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { thumbnailKey } from '../../src/services/templates/thumbnails';
import { realWorldPdf } from '../fixtures/pdfs';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { launchesCounted } from '../rendering-fixtures';
import { deliver, makePdf, pngSize, storedThumbnails, templateFrom, throughWorker } from '../thumbnail-fixtures';

async function documentKey(accountId: number, uuid: string): Promise<string> {
  const row = await (await shardOf(accountId))
    .prepare('SELECT r2_key FROM template_documents WHERE uuid = ?')
    .bind(uuid)
    .first<{ r2_key: string }>();
  return row!.r2_key;
}

describe('GET /api/templates/{id}/documents/thumbnail', { timeout: 60_000 }, () => {
  it('answers 202 with Retry-After for a page not drawn yet, queues its document and starts no browser', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2, [612, 792]));
    const { id, uuid } = template.documents[0];
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?page=2`, a.token);
    expect(res.status).toBe(202);
    expect(res.headers.get('Retry-After')).toBe('10');
    expect(res.json()).toEqual({
      status: 'generating',
      width: 400,
      thumbnails: [
        { document_id: uuid, page: 2, url: `https://api.test/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}&page=2` },
      ],
    });
    expect(res.sent).toEqual([{ type: 'thumbnails', accountId: a.accountId, documentIds: [id], widths: [400], shard: expect.any(Number) }]);
    expect(await storedThumbnails(a.accountId)).toEqual([]);
    expect(await launchesCounted(a.accountId)).toBe(0);
  });

  it('queues one batch for reads of several pages of a document at once', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    const reads = [];
    for (const page of [1, 2, 3])
      reads.push(await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?page=${page}`, a.token));
    expect(reads.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(reads.flatMap((r) => r.sent)).toEqual([
      { type: 'thumbnails', accountId: a.accountId, documentIds: [template.documents[0].id], widths: [400], shard: expect.any(Number) },
    ]);
  });

  it('serves the page once its batch has run: a PNG 400 pixels wide with the page’s proportions', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2, [612, 792]));
    const first = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail`, a.token);
    expect((await deliver(first.sent)).explicitAcks).toHaveLength(1);
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail`, a.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('X-Thumbnail-Width')).toBe('400');
    expect(pngSize(res.bytes)).toEqual({ width: 400, height: Math.round((400 * 792) / 612) });
    expect(res.sent).toEqual([]);
    // The batch drew the document's every page at that width, with one launch.
    expect(await storedThumbnails(a.accountId)).toEqual(['/thumbnails/w400/p1.png', '/thumbnails/w400/p2.png']);
    expect(await launchesCounted(a.accountId)).toBe(1);
  });

  it('rounds a width to the nearest drawn width and says which it serves', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const queued = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?width=120`, a.token);
    expect(queued.status).toBe(202);
    expect((queued.json() as { width: number }).width).toBe(200);
    expect(queued.sent.map((m) => m.widths)).toEqual([[200]]);
    await deliver(queued.sent);
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?width=120`, a.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Thumbnail-Width')).toBe('200');
    expect(pngSize(res.bytes).width).toBe(200);
    expect(await storedThumbnails(a.accountId)).toEqual(['/thumbnails/w200/p1.png']);
  });

  it('draws different pages differently', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, realWorldPdf());
    await deliver((await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?width=200`, a.token)).sent);
    const [first, second] = await Promise.all(
      [1, 2].map((page) => throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?page=${page}&width=200`, a.token)),
    );
    expect(first.bytes.byteLength).toBeGreaterThan(1000);
    expect(first.bytes).not.toEqual(second.bytes);
  });

  it('serves a stored thumbnail from R2 and queues nothing', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const marker = new TextEncoder().encode('stored-marker');
    await env.FILES.put(thumbnailKey(await documentKey(a.accountId, template.documents[0].uuid), 200, 1), marker);
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail?width=180`, a.token);
    expect(res.status).toBe(200);
    expect(res.bytes).toEqual(marker);
    expect(res.sent).toEqual([]);
  });

  it('answers 503 with a sentence for a page not drawn yet when no browser is configured, queuing nothing', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail`, a.token, { BROWSER: undefined });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({
      error: 'The thumbnail is not drawn yet and the rendering browser is unavailable; retry in a minute.',
    });
    expect(res.sent).toEqual([]);
  });

  it('answers 404 with a sentence for a page past the end', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2));
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail?page=3`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Page 3 not found: the document has 2 pages, numbered from 1.');
  });

  it('answers 404 for a document the template does not have', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail?document_id=${crypto.randomUUID()}`, {
      token: a.token,
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Document not found.');
  });

  it('answers 404 for another account’s template, queuing nothing and starting nothing', async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const template = await templateFrom(owner.token, await makePdf(1));
    const res = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail`, other.token);
    expect(res.status).toBe(404);
    expect(res.sent).toEqual([]);
    expect(await storedThumbnails(owner.accountId)).toEqual([]);
    expect(await launchesCounted(other.accountId)).toBe(0);
  });

  it('answers 422 with a sentence for a width out of range', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail?width=5000`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('width must be between 50 and 1600 pixels');
  });

  it('answers 401 without a token', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail`, { token: null });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token without templates:read', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    // A second token of the same account, with another scope.
    const token = await createToken(a.accountId, a.userId, ['submissions:read']);
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail`, { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:read');
  });
});

describe('POST /api/templates/{id}/documents/generate_thumbnail', { timeout: 60_000 }, () => {
  it('answers 202 with a URL for every page at the drawn width nearest the one asked for', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    const res = await api('POST', `/api/templates/${template.id}/documents/generate_thumbnail?width=150`, { token: a.token });
    expect(res.status).toBe(202);
    const { uuid } = template.documents[0];
    expect(res.json).toEqual({
      status: 'generating',
      width: 200,
      thumbnails: [1, 2, 3].map((page) => ({
        document_id: uuid,
        page,
        url: `https://api.test/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}${page === 1 ? '' : `&page=${page}`}&width=200`,
      })),
    });
  });

  it('queues one batch for every document, which draws every page with one browser launch', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, [await makePdf(3), await makePdf(2)]);
    const res = await throughWorker('POST', `/api/templates/${template.id}/documents/generate_thumbnail?width=200`, a.token);
    expect(res.status).toBe(202);
    expect(res.sent).toEqual([
      {
        type: 'thumbnails',
        accountId: a.accountId,
        documentIds: template.documents.map((d) => d.id),
        widths: [200],
        shard: expect.any(Number),
      },
    ]);
    expect(await launchesCounted(a.accountId)).toBe(0);
    const result = await deliver(res.sent);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await storedThumbnails(a.accountId)).toEqual([
      '/thumbnails/w200/p1.png',
      '/thumbnails/w200/p1.png',
      '/thumbnails/w200/p2.png',
      '/thumbnails/w200/p2.png',
      '/thumbnails/w200/p3.png',
    ]);
    expect(await launchesCounted(a.accountId)).toBe(1);
  });

  it('draws nothing and starts no browser when the batch runs again', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2));
    const res = await throughWorker('POST', `/api/templates/${template.id}/documents/generate_thumbnail`, a.token);
    await deliver(res.sent);
    const before = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    expect((await deliver(res.sent)).explicitAcks).toHaveLength(1);
    const after = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    expect(after.objects.map((o) => [o.key, o.etag])).toEqual(before.objects.map((o) => [o.key, o.etag]));
    expect(await launchesCounted(a.accountId)).toBe(1);
  });

  it('answers 404 for another account’s template', async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const template = await templateFrom(owner.token, await makePdf(1));
    const res = await throughWorker('POST', `/api/templates/${template.id}/documents/generate_thumbnail`, other.token);
    expect(res.status).toBe(404);
    expect(res.sent).toEqual([]);
  });

  it('answers 422 with a sentence for a width that is not a number', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const res = await api('POST', `/api/templates/${template.id}/documents/generate_thumbnail?width=wide`, { token: a.token });
    expect([400, 422]).toContain(res.status);
    expect(res.json.error).toContain('width must be an integer');
  });

  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/templates/tpl_x/documents/generate_thumbnail', { token: null });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token with templates:read only', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('POST', '/api/templates/tpl_x/documents/generate_thumbnail', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });
});

describe('thumbnail URLs in template responses', () => {
  it('gives the template and each document a thumbnail_url in get and list', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const { uuid } = template.documents[0];
    const expected = {
      thumbnail_url: `https://api.test/api/templates/${template.id}/documents/thumbnail`,
      documents: [
        expect.objectContaining({ thumbnail_url: `https://api.test/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}` }),
      ],
    };
    expect((await api('GET', `/api/templates/${template.id}`, { token: a.token })).json).toMatchObject(expected);
    const list = await api('GET', '/api/templates', { token: a.token });
    expect(list.json.data[0]).toMatchObject(expected);
  });
});

describe('deleting a template permanently', { timeout: 60_000 }, () => {
  it('deletes its thumbnails and HTML source with its documents', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/templates/html', { token: a.token, body: { html: '<p>Gone soon</p>' } });
    expect(created.status).toBe(201);
    await deliver((await throughWorker('GET', `/api/templates/${created.json.id}/documents/thumbnail?width=200`, a.token)).sent);
    expect((await env.FILES.list({ prefix: `templates/${a.accountId}/` })).objects).toHaveLength(3);
    const res = await api('DELETE', `/api/templates/${created.json.id}?permanently=true`, { token: a.token });
    expect(res.status).toBe(204);
    expect((await env.FILES.list({ prefix: `templates/${a.accountId}/` })).objects).toEqual([]);
  });
});
