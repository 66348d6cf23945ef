// Updating templates: PUT stores versions, preferences, roles; document changes; concurrent updates.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { findTemplate } from '../../src/db/queries/templates';
import { updateTemplate } from '../../src/services/templates/update-template';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { makePdf, pdfFile, toBase64 } from '../fixtures/pdfs';

async function create(token: string, body: Record<string, unknown> = {}, files?: Uint8Array[]) {
  const documents = (files ?? [await makePdf(2)]).map((bytes, i) => ({ name: `doc ${i + 1}`, file: toBase64(bytes) }));
  const res = await api('POST', '/api/templates/pdf', { token, body: { name: 'Template', documents, ...body } });
  expect(res.status).toBe(201);
  return res.json;
}

async function events(accountId: number): Promise<{ event: string; data: { template: Record<string, unknown> } }[]> {
  const { results } = await (await shardOf(accountId))
    .prepare('SELECT event, data FROM events WHERE account_id = ? ORDER BY id')
    .bind(accountId)
    .all<{ event: string; data: string }>();
  return results.map((r) => ({ event: r.event, data: JSON.parse(r.data) }));
}

describe('PUT /api/templates/{id}', () => {
  it('updates name, folder and external id and returns the new version', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: { name: 'Renamed', folder_name: 'HR', external_id: 'x-2' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: created.id, name: 'Renamed', folder_name: 'HR', external_id: 'x-2', version: 2 });
  });

  it('records a template.updated event in the outbox', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { name: 'Renamed' } });
    const [, updated] = await events(a.accountId);
    expect(updated.event).toBe('template.updated');
    expect(updated.data.template).toMatchObject({ id: created.id, name: 'Renamed', field_count: 0, document_count: 1 });
  });

  it('replaces the fields and checks them against the documents', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: { fields: [{ name: 'Late', type: 'text', areas: [{ page: 5, x: 0, y: 0, w: 0.1, h: 0.1 }] }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Late": areas[0].page 5 is outside the document, which has 2 pages numbered from 1.');
  });

  it('accepts the schema of a fetched template sent back unchanged', async () => {
    const a = await createAccount();
    const created = await create(a.token, { fields: [{ type: 'text', areas: [{ page: 2, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }] });
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { schema: created.schema } });
    expect(res.status).toBe(200);
    expect(res.json.schema).toEqual(created.schema);
  });

  it('renames roles by position with DocuSeal’s roles list, keeping their uuids', async () => {
    const a = await createAccount();
    const created = await create(a.token, { submitters: [{ name: 'A' }, { name: 'B' }] });
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { roles: ['Buyer', 'Seller'] } });
    expect(res.json.submitters).toEqual([
      { name: 'Buyer', uuid: created.submitters[0].uuid },
      { name: 'Seller', uuid: created.submitters[1].uuid },
    ]);
  });

  it('refuses removing a role that fields still belong to', async () => {
    const a = await createAccount();
    const created = await create(a.token, {
      submitters: [{ name: 'A' }, { name: 'B' }],
      fields: [{ name: 'Sig', type: 'signature', role: 'B' }],
    });
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { roles: ['A'] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^schema\[0\] "Sig": submitter_uuid .* is not one of the template's submitters\.$/);
  });

  it('merges preferences and removes a key set to null', async () => {
    const a = await createAccount();
    const created = await create(a.token, { preferences: { signing_nav_style: 'branded_bar', require_email_2fa: true } });
    const res = await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: { preferences: { require_email_2fa: null, carousel_review_documents: [created.documents[0].uuid], header_color: '#102030' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.preferences).toEqual({
      signing_nav_style: 'branded_bar',
      carousel_review_documents: [created.documents[0].uuid],
      header_color: '#102030',
    });
  });

  it('stores document_conditions that point at the template’s documents and fields', async () => {
    const a = await createAccount();
    const created = await create(a.token, { fields: [{ name: 'Married', type: 'checkbox' }] }, [await makePdf(), await makePdf()]);
    const conditions = {
      [created.documents[1].uuid]: { action: 'show', conditions: [{ field_uuid: created.schema[0].uuid, operator: 'checked' }] },
    };
    const res = await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: { preferences: { document_conditions: conditions } },
    });
    expect(res.status).toBe(200);
    expect(res.json.preferences.document_conditions).toEqual(conditions);
  });

  it('refuses a document condition on a field the template does not have', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const missing = '99999999-9999-4999-8999-999999999999';
    const res = await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: {
        preferences: {
          document_conditions: {
            [created.documents[0].uuid]: { action: 'hide', conditions: [{ field_uuid: missing, operator: 'empty' }] },
          },
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `preferences.document_conditions.${created.documents[0].uuid}.conditions[0].field_uuid ${missing} is not a field of this template.`,
    );
  });

  it('refuses a light header colour', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { preferences: { header_color: '#ffffff' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^preferences\.header_color #ffffff is too light/);
  });

  it('refuses an unknown preference key', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { preferences: { sparkle: true } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('preferences has unknown key: sparkle.');
  });

  it('refuses an unknown signing_nav_style', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { preferences: { signing_nav_style: 'fancy' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('preferences.signing_nav_style must be one of: standard, branded_bar.');
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}`, { token: b.token, body: { name: 'Mine now' } });
    expect(res.status).toBe(404);
  });

  it('answers 403 to a token with only templates:read', async () => {
    const a = await createAccount({ scopes: ['templates:read', 'templates:write'] });
    const created = await create(a.token);
    const reader = await createToken(a.accountId, a.userId, ['templates:read']);
    const res = await api('PUT', `/api/templates/${created.id}`, { token: reader, body: { name: 'No' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('answers 401 without a token', async () => {
    const res = await api('PUT', '/api/templates/tpl_x', { body: { name: 'No' } });
    expect(res.status).toBe(401);
  });

  it('answers 409 when another change landed since the template was read', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const db = createDb(await shardOf(a.accountId));
    const stale = (await findTemplate(db, a.accountId, created.id))!;
    await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { name: 'First writer' } });
    const context = {
      db,
      bucket: env.FILES,
      actor: { accountId: a.accountId, userId: a.userId, plan: 'pro', upgradeUrl: '', signatureLevel: 'ses' as const },
    };
    await expect(updateTemplate(context, stale, { name: 'Second writer' })).rejects.toMatchObject({ status: 409 });
    expect((await api('GET', `/api/templates/${created.id}`, { token: a.token })).json.name).toBe('First writer');
  });
});

describe('GET /api/templates/{id}/versions', () => {
  it('lists every stored version newest first with what changed', async () => {
    const a = await createAccount();
    const created = await create(a.token, { name: 'V1' });
    await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { name: 'V2' } });
    await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { fields: [{ type: 'text' }] } });
    const res = await api('GET', `/api/templates/${created.id}/versions`, { token: a.token });
    expect(res.status).toBe(200);
    expect(
      res.json.data.map((v: { version: number; changes: string[]; template: { name: string; schema: unknown[] } }) => [
        v.version,
        v.changes,
        v.template.name,
        v.template.schema.length,
      ]),
    ).toEqual([
      [3, ['schema'], 'V2', 1],
      [2, ['name'], 'V2', 0],
      [1, ['created'], 'V1', 0],
    ]);
    expect(res.json.pagination).toEqual({ page: 1, per_page: 10, total: 3, total_pages: 1 });
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    expect((await api('GET', `/api/templates/${created.id}/versions`, { token: b.token })).status).toBe(404);
  });
});

describe('PUT /api/templates/{id}/documents', () => {
  it('adds a document at the end', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'Annex', file: toBase64(await makePdf(3)) }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.documents.map((d: { filename: string; page_count: number }) => [d.filename, d.page_count])).toEqual([
      ['doc 1', 2],
      ['Annex', 3],
    ]);
    expect(res.json.version).toBe(2);
  });

  it('adds a document from a multipart file part at a position', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const form = new FormData();
    form.set('documents[0][file]', pdfFile(await makePdf(1), 'cover.pdf'));
    form.set('documents[0][position]', '0');
    const res = await api('PUT', `/api/templates/${created.id}/documents`, { token: a.token, body: form });
    expect(res.status).toBe(200);
    expect(res.json.documents.map((d: { filename: string }) => d.filename)).toEqual(['cover', 'doc 1']);
  });

  it('replaces a document’s file keeping its uuid and the fields on it', async () => {
    const a = await createAccount();
    const created = await create(a.token, { fields: [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }] });
    const uuid = created.documents[0].uuid;
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid, file: toBase64(await makePdf(4)) }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.documents).toHaveLength(1);
    expect(res.json.documents[0]).toMatchObject({ uuid, page_count: 4 });
    expect(res.json.schema[0].areas[0].attachment_uuid).toBe(uuid);
  });

  it('refuses a replacement whose pages no longer hold the fields', async () => {
    const a = await createAccount();
    const created = await create(a.token, {
      fields: [{ name: 'On 2', type: 'text', areas: [{ page: 2, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }],
    });
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: created.documents[0].uuid, file: toBase64(await makePdf(1)) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('schema[0] "On 2": areas[0].page 2 is outside the document, which has 1 page numbered from 1.');
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    expect(listed.objects).toHaveLength(1);
  });

  it('removes a document and drops the areas on it', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(), await makePdf()]);
    const second = created.documents[1].uuid;
    await api('PUT', `/api/templates/${created.id}`, {
      token: a.token,
      body: { fields: [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1, attachment_uuid: second }] }] },
    });
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: second, remove: true }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.documents.map((d: { uuid: string }) => d.uuid)).toEqual([created.documents[0].uuid]);
    expect(res.json.schema[0].areas).toEqual([]);
  });

  it('removes a document named by DocuSeal’s position form', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(), await makePdf()]);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ position: 0, remove: true }] },
    });
    expect(res.json.documents.map((d: { uuid: string }) => d.uuid)).toEqual([created.documents[1].uuid]);
  });

  it('renames a document without touching its file', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: created.documents[0].uuid, name: 'Main contract' }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.documents[0]).toMatchObject({
      uuid: created.documents[0].uuid,
      id: created.documents[0].id,
      filename: 'Main contract',
    });
  });

  it('refuses removing the last document', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: created.documents[0].uuid, remove: true }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('A template must keep at least one document.');
  });

  it('refuses going over 10 documents in all', async () => {
    const a = await createAccount();
    const file = toBase64(await makePdf());
    const created = await create(a.token);
    await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: Array.from({ length: 8 }, () => ({ file })) },
    });
    const res = await api('PUT', `/api/templates/${created.id}/documents`, { token: a.token, body: { documents: [{ file }, { file }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('A template can hold at most 10 documents; this request would give it 11.');
  });

  it('refuses a document uuid the template does not have', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: '12345678-1234-4234-8234-123456789012', remove: true }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] names document 12345678-1234-4234-8234-123456789012, which is not a current document of this template.',
    );
  });

  it('keeps the removed document’s file for earlier versions', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(), await makePdf()]);
    await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: created.documents[1].uuid, remove: true }] },
    });
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    expect(listed.objects).toHaveLength(2);
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: b.token,
      body: { documents: [{ file: toBase64(await makePdf()) }] },
    });
    expect(res.status).toBe(404);
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const reader = await createToken(a.accountId, a.userId, ['templates:read']);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: reader,
      body: { documents: [{ file: toBase64(await makePdf()) }] },
    });
    expect(res.status).toBe(403);
  });
});
