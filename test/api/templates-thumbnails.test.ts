// Template thumbnails: GET …/documents/thumbnail draws on first request and then serves from R2;
// POST …/documents/generate_thumbnail draws every page after answering; lists carry the URLs.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken } from '../helpers';
import { makePdf, realWorldPdf, toBase64 } from '../fixtures/pdfs';

type Created = { id: string; documents: { uuid: string; page_count: number; thumbnail_url: string }[]; thumbnail_url: string };

async function templateFrom(token: string, pdf: Uint8Array, name = 'Thumbs'): Promise<Created> {
  const res = await api('POST', '/api/templates/pdf', { token, body: { name, documents: [{ name, file: toBase64(pdf) }] } });
  if (res.status !== 201) throw new Error(`template create answered ${res.status}: ${res.text}`);
  return res.json;
}

async function getPng(token: string, path: string) {
  const res = await SELF.fetch(`https://api.test${path}`, { headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': '198.51.100.7' } });
  return { status: res.status, type: res.headers.get('Content-Type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function storedThumbnails(accountId: number): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: `templates/${accountId}/` });
  return listed.objects.map((o) => o.key).filter((key) => key.includes('/thumbnails/'));
}

// Each drawing starts a browser session (a few seconds locally).
describe('GET /api/templates/{id}/documents/thumbnail', { timeout: 60_000 }, () => {
  it('draws the first page as a PNG 400 pixels wide with the page’s proportions', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2, [612, 792]));
    const res = await getPng(a.token, `/api/templates/${template.id}/documents/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/png');
    expect(pngSize(res.bytes)).toEqual({ width: 400, height: Math.round((400 * 792) / 612) });
  });

  it('draws the page and width asked for and stores it in R2', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    const { uuid } = template.documents[0];
    const res = await getPng(a.token, `/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}&page=3&width=120`);
    expect(pngSize(res.bytes).width).toBe(120);
    const stored = await storedThumbnails(a.accountId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/\/thumbnails\/w120\/p3\.png$/);
  });

  it('draws different pages differently', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, realWorldPdf());
    const [first, second] = await Promise.all([1, 2].map((page) => getPng(a.token, `/api/templates/${template.id}/documents/thumbnail?page=${page}&width=200`)));
    expect(first.bytes.byteLength).toBeGreaterThan(1000);
    expect(first.bytes).not.toEqual(second.bytes);
  });

  it('serves a stored thumbnail from R2 without drawing it again', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    await getPng(a.token, `/api/templates/${template.id}/documents/thumbnail?width=100`);
    const [key] = await storedThumbnails(a.accountId);
    const marker = new TextEncoder().encode('stored-marker');
    await env.FILES.put(key, marker);
    const res = await getPng(a.token, `/api/templates/${template.id}/documents/thumbnail?width=100`);
    expect(res.bytes).toEqual(marker);
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
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail?document_id=${crypto.randomUUID()}`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Document not found.');
  });

  it('answers 404 for another account’s template', async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const template = await templateFrom(owner.token, await makePdf(1));
    const res = await api('GET', `/api/templates/${template.id}/documents/thumbnail`, { token: other.token });
    expect(res.status).toBe(404);
    expect(await storedThumbnails(owner.accountId)).toEqual([]);
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
  it('answers 202 with a URL for every page at the width asked for', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    const res = await api('POST', `/api/templates/${template.id}/documents/generate_thumbnail?width=150`, { token: a.token });
    expect(res.status).toBe(202);
    const { uuid } = template.documents[0];
    expect(res.json).toEqual({
      status: 'generating',
      width: 150,
      thumbnails: [1, 2, 3].map((page) => ({
        document_id: uuid,
        page,
        url: `https://api.test/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}${page === 1 ? '' : `&page=${page}`}&width=150`,
      })),
    });
  });

  it('stores every page’s PNG in R2 after answering', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    await api('POST', `/api/templates/${template.id}/documents/generate_thumbnail?width=80`, { token: a.token });
    let stored: string[] = [];
    for (let i = 0; i < 60 && stored.length < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      stored = await storedThumbnails(a.accountId);
    }
    expect(stored.map((key) => key.slice(key.indexOf('/thumbnails/'))).sort()).toEqual(['/thumbnails/w80/p1.png', '/thumbnails/w80/p2.png', '/thumbnails/w80/p3.png']);
  });

  it('answers 404 for another account’s template', async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const template = await templateFrom(owner.token, await makePdf(1));
    const res = await api('POST', `/api/templates/${template.id}/documents/generate_thumbnail`, { token: other.token });
    expect(res.status).toBe(404);
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
      documents: [expect.objectContaining({ thumbnail_url: `https://api.test/api/templates/${template.id}/documents/thumbnail?document_id=${uuid}` })],
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
    await getPng(a.token, `/api/templates/${created.json.id}/documents/thumbnail?width=60`);
    expect((await env.FILES.list({ prefix: `templates/${a.accountId}/` })).objects).toHaveLength(3);
    const res = await api('DELETE', `/api/templates/${created.json.id}?permanently=true`, { token: a.token });
    expect(res.status).toBe(204);
    expect((await env.FILES.list({ prefix: `templates/${a.accountId}/` })).objects).toEqual([]);
  });
});
