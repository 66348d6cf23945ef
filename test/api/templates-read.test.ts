// Reading templates: by either id, lists with page pagination and filters, and document downloads.
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { SELF } from 'cloudflare:test';
import { allShards, api, createAccount, createToken } from '../helpers';
import { makePdf, realWorldPdf, toBase64 } from '../fixtures/pdfs';

async function create(token: string, body: Record<string, unknown> = {}, files?: Uint8Array[]) {
  const documents = (files ?? [await makePdf()]).map((bytes, i) => ({ name: `doc ${i + 1}`, file: toBase64(bytes) }));
  const res = await api('POST', '/api/templates/pdf', { token, body: { name: 'Template', documents, ...body } });
  expect(res.status).toBe(201);
  return res.json;
}

/** The template's row id; the test does not say whose it is, so every shard is asked. */
async function rowId(publicId: string): Promise<number> {
  for (const shard of allShards()) {
    const row = await shard.prepare('SELECT id FROM templates WHERE public_id = ?').bind(publicId).first<{ id: number }>();
    if (row) return row.id;
  }
  throw new Error(`No template ${publicId}`);
}

describe('GET /api/templates/{id}', () => {
  it('returns the template by its public id', async () => {
    const a = await createAccount();
    const created = await create(a.token, { name: 'Lease' });
    const res = await api('GET', `/api/templates/${created.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(created);
  });

  it('returns the template by its integer row id', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('GET', `/api/templates/${await rowId(created.id)}`, { token: a.token });
    expect(res.json.id).toBe(created.id);
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    const res = await api('GET', `/api/templates/${created.id}`, { token: b.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Template not found.');
  });

  it('answers 404 for another account’s integer id', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    const res = await api('GET', `/api/templates/${await rowId(created.id)}`, { token: b.token });
    expect(res.status).toBe(404);
  });

  it('answers 403 to a token without templates:read', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const token = await createToken(a.accountId, a.userId, ['submissions:read']);
    const res = await api('GET', `/api/templates/${created.id}`, { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:read');
  });

  it('answers 401 without a token', async () => {
    const res = await api('GET', '/api/templates/tpl_whatever');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/templates', () => {
  it('lists the account’s templates newest first with page pagination', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const first = await create(a.token, { name: 'First' });
    const second = await create(a.token, { name: 'Second' }, [await makePdf(), await makePdf()]);
    const third = await create(a.token, { name: 'Third' });
    await create(b.token, { name: 'Other account' });
    const page1 = await api('GET', '/api/templates?per_page=2', { token: a.token });
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((t: { id: string }) => t.id)).toEqual([third.id, second.id]);
    expect(page1.json.pagination).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    const page2 = await api('GET', '/api/templates?per_page=2&page=2', { token: a.token });
    expect(page2.json.data.map((t: { id: string }) => t.id)).toEqual([first.id]);
    // Each listed template carries its own documents, read with the page (one D1 batch).
    const documentsOf = (t: { documents: { uuid: string }[] }) => t.documents.map((d) => d.uuid);
    expect([...page1.json.data, ...page2.json.data].map(documentsOf)).toEqual([third, second, first].map(documentsOf));
  });

  it('filters by q, external_id, folder and slug', async () => {
    const a = await createAccount();
    const lease = await create(a.token, { name: 'Office lease', external_id: 'L-1', folder_name: 'Real estate' });
    await create(a.token, { name: 'NDA', external_id: 'N-1', folder_name: 'Legal' });
    const ids = async (query: string) =>
      (await api('GET', `/api/templates?${query}`, { token: a.token })).json.data.map((t: { id: string }) => t.id);
    expect(await ids('q=lease')).toEqual([lease.id]);
    expect(await ids('external_id=L-1')).toEqual([lease.id]);
    expect(await ids('folder=real%20estate')).toEqual([lease.id]);
    expect(await ids(`slug=${lease.slug}`)).toEqual([lease.id]);
  });

  it('treats % and _ in q as literal characters', async () => {
    const a = await createAccount();
    await create(a.token, { name: 'Plain' });
    const res = await api('GET', '/api/templates?q=%25', { token: a.token });
    expect(res.json.data).toEqual([]);
  });

  it('refuses per_page over 100 with a sentence', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/templates?per_page=500', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('per_page must be between 1 and 100.');
  });
});

describe('template documents', () => {
  it('streams a stored document with its bytes unchanged', async () => {
    const a = await createAccount();
    const bytes = realWorldPdf();
    const created = await create(a.token, {}, [bytes]);
    const response = await SELF.fetch(created.documents[0].url, { headers: { 'X-Auth-Token': a.token } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toContain('filename="doc 1.pdf"');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('serves a document by its integer id too', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const response = await SELF.fetch(`https://api.test/api/templates/${created.id}/documents/${created.documents[0].id}`, {
      headers: { 'X-Auth-Token': a.token },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('refuses the document URL without a token', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const response = await SELF.fetch(created.documents[0].url);
    expect(response.status).toBe(401);
    await response.arrayBuffer();
  });

  it('answers 404 for another account’s document URL', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    const response = await SELF.fetch(created.documents[0].url, { headers: { 'X-Auth-Token': b.token } });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });

  it('lists the documents with their URLs', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(1), await makePdf(2)]);
    const res = await api('GET', `/api/templates/${created.id}/documents`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(created.documents);
  });

  it('downloads every document as one PDF bundle', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(1), realWorldPdf()]);
    const response = await SELF.fetch(created.download_url, { headers: { 'X-Auth-Token': a.token } });
    expect(response.status).toBe(200);
    const bundle = await PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    expect(bundle.getPageCount()).toBe(18);
  });

  it('downloads a one-document template as that document', async () => {
    const a = await createAccount();
    const bytes = await makePdf(2);
    const created = await create(a.token, {}, [bytes]);
    const response = await SELF.fetch(created.download_url, { headers: { 'X-Auth-Token': a.token } });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });
});

describe('OpenAPI document', () => {
  it('documents the upload bodies of /templates/pdf for JSON and multipart', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const content = res.json.paths['/templates/pdf'].post.requestBody.content;
    expect(Object.keys(content)).toEqual(['application/json', 'multipart/form-data']);
    expect(res.json.components.schemas.TemplateCreateMultipart.properties.documents.items.properties.file).toMatchObject({
      format: 'binary',
    });
  });
});
