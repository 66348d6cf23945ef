// POST /api/templates/pdf and POST /api/templates: uploads, limits, atomicity, events.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, shardOf } from '../helpers';
import { pageInObjectStream, xrefStreamDeclaring } from '../fixtures/hostile-pdfs';
import { fromLatin1, latin1, makeEncryptedPdf, makePdf, makeSignedPdf, pdfFile, realWorldPdf, toBase64 } from '../fixtures/pdfs';

async function storedKeys(accountId: number): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: `templates/${accountId}/` });
  return listed.objects.map((o) => o.key);
}

async function rowCount(table: string, accountId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
    .bind(accountId)
    .first<{ n: number }>();
  return row!.n;
}

describe('POST /api/templates/pdf (JSON)', () => {
  it('creates a template from the real-world multi-page PDF with its page count and sizes', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: {
        name: 'MIME spec',
        external_id: 'ext-1',
        folder_name: 'Specs',
        documents: [{ name: 'spec', file: toBase64(realWorldPdf()) }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'MIME spec',
      external_id: 'ext-1',
      folder_name: 'Specs',
      source: 'api',
      shared: false,
      version: 1,
      archived_at: null,
      schema: [],
      submitters: [{ name: 'First Party' }],
      preferences: {},
    });
    expect(res.json.id).toMatch(/^tpl_[0-9A-Za-z]{16,}$/);
    expect(res.json.download_url).toBe(`https://api.test/api/templates/${res.json.id}/download`);
    const [document] = res.json.documents;
    expect(document).toMatchObject({
      filename: 'spec',
      page_count: 17,
      content_type: 'application/pdf',
      byte_size: realWorldPdf().byteLength,
    });
    expect(document.page_dimensions).toHaveLength(17);
    expect(document.page_dimensions[0]).toEqual({ width: 609.714, height: 789.041 });
    expect(document.url).toBe(`https://api.test/api/templates/${res.json.id}/documents/${document.uuid}`);
  });

  it('stores the uploaded bytes unchanged in R2', async () => {
    const a = await createAccount();
    const bytes = await makePdf(2);
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ name: 'doc', file: toBase64(bytes) }] } });
    const [key] = await storedKeys(a.accountId);
    const object = await env.FILES.get(key);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect(res.json.documents[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts a data URL as the file', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { name: 'Data URL', documents: [{ name: 'doc', file: `data:application/pdf;base64,${toBase64(await makePdf(3))}` }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.documents[0].page_count).toBe(3);
  });

  it('reports page sizes as the signer sees them, turned by the page rotation', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'landscape', file: toBase64(await makePdf(1, [300, 500], { rotate: 90 })) }] },
    });
    expect(res.json.documents[0].page_dimensions).toEqual([{ width: 500, height: 300 }]);
  });

  it('defaults the template name to the first document name', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'Lease', file: toBase64(await makePdf()) }] },
    });
    expect(res.json.name).toBe('Lease');
  });

  it('accepts a chunked JSON body without Content-Length, as the DocuSeal JS client sends it', async () => {
    const a = await createAccount();
    const json = JSON.stringify({ name: 'Chunked', documents: [{ name: 'doc', file: toBase64(await makePdf(2)) }] });
    const encoded = new TextEncoder().encode(json);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < encoded.length; i += 512) controller.enqueue(encoded.subarray(i, i + 512));
        controller.close();
      },
    });
    const response = await SELF.fetch('https://api.test/api/templates/pdf', {
      method: 'POST',
      headers: { 'X-Auth-Token': a.token, 'Content-Type': 'application/json' },
      body: stream,
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe('Chunked');
  });

  it('is also served at /api/v1/templates/pdf', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/v1/templates/pdf', { token: a.token, body: { documents: [{ file: toBase64(await makePdf()) }] } });
    expect(res.status).toBe(201);
    expect(res.json.documents[0].filename).toBe('Document 1');
  });
});

describe('POST /api/templates/pdf (multipart)', () => {
  it('creates a template from bracketed form parts with JSON-valued roles and fields', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('name', 'Multipart');
    form.set('documents[0][name]', 'Contract');
    form.set('documents[0][file]', pdfFile(await makePdf(2), 'contract.pdf'));
    form.set('submitters', JSON.stringify([{ name: 'Tenant' }, { name: 'Landlord' }]));
    form.set(
      'fields',
      JSON.stringify([{ name: 'Sign here', type: 'signature', role: 'Landlord', areas: [{ page: 2, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }]),
    );
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((s: { name: string }) => s.name)).toEqual(['Tenant', 'Landlord']);
    expect(res.json.schema[0]).toMatchObject({ name: 'Sign here', type: 'signature', submitter_uuid: res.json.submitters[1].uuid });
    expect(res.json.schema[0].areas[0]).toEqual({ page: 2, x: 0.1, y: 0.8, w: 0.3, h: 0.05, attachment_uuid: res.json.documents[0].uuid });
  });

  it('reads a chunked multipart body without Content-Length through the counted read', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('name', 'Chunked form');
    form.set('documents[0][file]', pdfFile(await makePdf(3), 'chunked.pdf'));
    const encoded = new Response(form);
    const type = encoded.headers.get('Content-Type')!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 700) controller.enqueue(bytes.subarray(i, i + 700));
        controller.close();
      },
    });
    const response = await SELF.fetch('https://api.test/api/templates/pdf', {
      method: 'POST',
      headers: { 'X-Auth-Token': a.token, 'Content-Type': type },
      body: stream,
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { documents: { page_count: number }[] }).documents[0].page_count).toBe(3);
  });

  it('answers 413 to a chunked multipart body once it passes 50 MB, and stops reading it', async () => {
    const a = await createAccount();
    const chunk = new Uint8Array(1024 * 1024).fill(0x41);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 80) controller.close();
        else
          controller.enqueue(pulled === 1 ? new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="name"\r\n\r\n') : chunk);
      },
    });
    const response = await SELF.fetch('https://api.test/api/templates/pdf', {
      method: 'POST',
      headers: { 'X-Auth-Token': a.token, 'Content-Type': 'multipart/form-data; boundary=x' },
      body: stream,
    });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(60);
    expect(await rowCount('templates', a.accountId)).toBe(0);
  });

  it('takes plain file parts as documents named after their file names', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.append('files[]', pdfFile(await makePdf(1), 'first.pdf'));
    form.append('files[]', pdfFile(await makePdf(4), 'second.pdf'));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(201);
    expect(res.json.documents.map((d: { filename: string; page_count: number }) => [d.filename, d.page_count])).toEqual([
      ['first', 1],
      ['second', 4],
    ]);
  });

  it('reads bracketed area numbers and booleans as numbers and booleans', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('documents[0][file]', pdfFile(await makePdf(1)));
    form.set('fields[0][type]', 'text');
    form.set('fields[0][required]', 'false');
    form.set('fields[0][areas][0][page]', '1');
    form.set('fields[0][areas][0][x]', '0.25');
    form.set('fields[0][areas][0][y]', '0.5');
    form.set('fields[0][areas][0][w]', '0.2');
    form.set('fields[0][areas][0][h]', '0.04');
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(201);
    expect(res.json.schema[0]).toMatchObject({ required: false, areas: [{ page: 1, x: 0.25, y: 0.5, w: 0.2, h: 0.04 }] });
  });
});

describe('POST /api/templates/pdf malformed multipart', () => {
  it('answers 400 when form keys conflict instead of failing', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('documents', 'plain text');
    form.set('documents[0][file]', pdfFile(await makePdf()));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The form keys for documents conflict: one gives a value where another expects a list or object.');
  });

  it('refuses a __proto__ form key', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('__proto__[polluted]', 'yes');
    form.set('documents[0][file]', pdfFile(await makePdf()));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 400 to a submitters part that is not valid JSON', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.set('submitters', '[{"name": ');
    form.set('documents[0][file]', pdfFile(await makePdf()));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The submitters part is not valid JSON.');
  });

  it('answers 400 to a content type that is neither JSON nor multipart', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('Send the body as application/json or multipart/form-data (got text/plain).');
  });
});

describe('POST /api/templates/pdf refusals', () => {
  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/templates/pdf', { body: { documents: [] } });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file: toBase64(await makePdf()) }] } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('refuses a file that is not a PDF with 422 naming the document', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'notes', file: toBase64(new TextEncoder().encode('just some text, not a PDF')) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "notes" is not a PDF file.');
  });

  it('refuses an encrypted PDF with 422', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'locked', file: toBase64(await makeEncryptedPdf()) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^documents\[0\] "locked" is encrypted or password-protected/);
  });

  it('accepts a PDF another party signed already, to be co-signed (issue 33 › 6)', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'signed', file: toBase64(await makeSignedPdf()) }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.documents).toHaveLength(1);
  });

  it('refuses a truncated PDF with 422', async () => {
    const a = await createAccount();
    const bytes = realWorldPdf();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'cut', file: toBase64(bytes.subarray(0, bytes.length / 2)) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^documents\[0\] "cut" is truncated or corrupt/);
  });

  it('refuses a PDF whose objects are garbage with 422', async () => {
    const a = await createAccount();
    const bytes = fromLatin1(`%PDF-1.7\n${'x'.repeat(3000)}\n%%EOF\n`);
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ name: 'junk', file: toBase64(bytes) }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^documents\[0\] "junk" is corrupt/);
  });

  it('refuses a PDF whose compressed objects expand past 32 MB with 422, storing nothing', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'bomb', file: toBase64(pageInObjectStream(33 * 1024 * 1024)) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "bomb" is too large to read: its compressed objects expand past 32 MB.');
    expect(await storedKeys(a.accountId)).toEqual([]);
    expect(await rowCount('templates', a.accountId)).toBe(0);
  });

  it('creates a template from a PDF whose xref stream declares billions of rows it does not hold', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'claims', file: toBase64(xrefStreamDeclaring('[1 2 1]', '[0 2000000000]')) }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.documents[0]).toMatchObject({ page_count: 1, page_dimensions: [{ width: 612, height: 792 }] });
  });

  it('refuses a file over 20 MB with 422 before decoding it', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'huge', file: 'A'.repeat(28 * 1024 * 1024) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "huge" is 21.0 MB; files can be at most 20 MB.');
  });

  it('refuses a multipart file over 20 MB with 422', async () => {
    const a = await createAccount();
    const big = await makePdf(1);
    const padded = new Uint8Array(21 * 1024 * 1024);
    padded.set(big);
    const form = new FormData();
    form.set('documents[0][file]', pdfFile(padded, 'big.pdf'));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: form });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] is 21.0 MB; files can be at most 20 MB.');
  });

  it('refuses more than 10 documents with 422', async () => {
    const a = await createAccount();
    const file = toBase64(await makePdf());
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: Array.from({ length: 11 }, () => ({ file })) },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents must be at most 10 items.');
  });

  it('refuses more than 500 pages in all with 422', async () => {
    const a = await createAccount();
    const file = toBase64(await makePdf(251));
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }, { file }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('A template can have at most 500 pages in all; these documents would give it 502.');
  });

  it('refuses a URL as the file with a sentence saying URLs are not fetched', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file: 'https://example.com/a.pdf' }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/is a URL; files are not fetched/);
  });

  it('refuses text that is not base64 with 422', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file: 'not base64 at all!' }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^documents\[0\]\.file must be base64-encoded/);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: '{"documents": [' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The request body is not valid JSON.');
  });

  it('answers 413 to a body declared over 50 MB without reading it', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: '{}',
      headers: { 'Content-Length': String(60 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
  });

  it('stores nothing when one of several documents is refused', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ file: toBase64(await makePdf()) }, { file: toBase64(await makeEncryptedPdf()) }] },
    });
    expect(res.status).toBe(422);
    expect(await storedKeys(a.accountId)).toEqual([]);
    expect(await rowCount('templates', a.accountId)).toBe(0);
    expect(await rowCount('template_documents', a.accountId)).toBe(0);
  });

  it('deletes the stored files when writing the rows fails', async () => {
    const a = await createAccount();
    const shard = await shardOf(a.accountId);
    await shard.exec(
      "CREATE TRIGGER refuse_boom BEFORE INSERT ON templates WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by test'); END;",
    );
    try {
      const res = await api('POST', '/api/templates/pdf', {
        token: a.token,
        body: { name: 'boom', documents: [{ file: toBase64(await makePdf()) }, { file: toBase64(await makePdf(2)) }] },
      });
      expect(res.status).toBe(500);
      expect(await storedKeys(a.accountId)).toEqual([]);
      expect(await rowCount('template_documents', a.accountId)).toBe(0);
      expect(await rowCount('events', a.accountId)).toBe(0);
    } finally {
      await shard.exec('DROP TRIGGER refuse_boom;');
    }
  });

  it('answers 403 with upgrade_url when the plan’s template limit is reached', async () => {
    const a = await createAccount({ plan: 'free' });
    const file = toBase64(await makePdf());
    for (let i = 0; i < 5; i += 1) {
      expect((await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })).status).toBe(201);
    }
    const res = await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      error: 'Your free plan allows 5 active templates; archive one or upgrade.',
      code: 'plan_limit_reached',
      upgrade_url: 'https://api.test/settings/billing',
    });
  });
});

describe('POST /api/templates', () => {
  it('refuses a field list without any document with 422', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates', {
      token: a.token,
      body: { name: 'Fields only', fields: [{ type: 'text', name: 'Name' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents must include at least one file; a template cannot be created from a field list alone.');
  });

  it('creates a template when documents are included', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates', {
      token: a.token,
      body: { name: 'With file', documents: [{ file: toBase64(await makePdf()) }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('With file');
  });
});

describe('template.created event', () => {
  it('is written to the outbox with the spec’s template payload', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: {
        name: 'Evented',
        external_id: 'e-9',
        submitters: [{ name: 'Signer' }],
        fields: [{ type: 'signature' }, { type: 'date' }],
        documents: [{ file: toBase64(await makePdf()) }, { file: toBase64(await makePdf()) }],
      },
    });
    const row = await (await shardOf(a.accountId))
      .prepare('SELECT event, data FROM events WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ event: string; data: string }>();
    expect(row!.event).toBe('template.created');
    expect(JSON.parse(row!.data)).toEqual({
      template: {
        id: res.json.id,
        name: 'Evented',
        slug: res.json.slug,
        external_id: 'e-9',
        folder_name: 'Default',
        source: 'api',
        created_at: res.json.created_at,
        updated_at: res.json.updated_at,
        submitters: [{ uuid: res.json.submitters[0].uuid, name: 'Signer' }],
        field_count: 2,
        document_count: 2,
      },
    });
  });
});

describe('fixtures', () => {
  it('keeps the committed real-world PDF a real multi-page PDF', () => {
    const text = latin1(realWorldPdf().subarray(0, 8));
    expect(text.startsWith('%PDF-')).toBe(true);
  });
});
