// Clone, merge, archive, restore and permanent deletion of templates.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

async function create(token: string, body: Record<string, unknown> = {}, files?: Uint8Array[]) {
  const documents = (files ?? [await makePdf(2)]).map((bytes, i) => ({ name: `doc ${i + 1}`, file: toBase64(bytes) }));
  const res = await api('POST', '/api/templates/pdf', { token, body: { name: 'Template', documents, ...body } });
  expect(res.status).toBe(201);
  return res.json;
}

async function storedKeys(accountId: number): Promise<string[]> {
  return (await env.FILES.list({ prefix: `templates/${accountId}/` })).objects.map((o) => o.key);
}

async function lastEvent(accountId: number): Promise<{ event: string; data: { template: Record<string, unknown> } }> {
  const row = await (await shardOf(accountId))
    .prepare('SELECT event, data FROM events WHERE account_id = ? ORDER BY id DESC LIMIT 1')
    .bind(accountId)
    .first<{ event: string; data: string }>();
  return { event: row!.event, data: JSON.parse(row!.data) };
}

const area = (attachment_uuid?: string) => ({ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05, ...(attachment_uuid ? { attachment_uuid } : {}) });

describe('POST /api/templates/{id}/clone', () => {
  it('copies the template with a new name, folder and external id', async () => {
    const a = await createAccount();
    const source = await create(a.token, {
      submitters: [{ name: 'Signer' }],
      fields: [{ name: 'Sig', type: 'signature', areas: [area()] }],
    });
    const res = await api('POST', `/api/templates/${source.id}/clone`, {
      token: a.token,
      body: { name: 'Copy', folder_name: 'Copies', external_id: 'c-1' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Copy',
      folder_name: 'Copies',
      external_id: 'c-1',
      source: 'clone',
      version: 1,
      submitters: source.submitters,
    });
    expect(res.json.id).not.toBe(source.id);
    expect(res.json.schema[0]).toMatchObject({ uuid: source.schema[0].uuid, name: 'Sig' });
    expect(res.json.schema[0].areas[0].attachment_uuid).toBe(res.json.documents[0].uuid);
    expect(res.json.documents[0].uuid).not.toBe(source.documents[0].uuid);
  });

  it('takes an empty body sent as JSON as no body (clients that always set the header)', async () => {
    const a = await createAccount();
    const source = await create(a.token);
    const sent: Record<string, string>[] = [
      { 'Content-Type': 'application/json' },
      { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': '0' },
    ];
    for (const headers of sent) {
      const res = await api('POST', `/api/templates/${source.id}/clone`, { token: a.token, body: '', headers });
      expect(res.status, JSON.stringify(headers)).toBe(201);
      expect(res.json.name).toBe('Template (Clone)');
    }
    // A body that is there and not JSON is still refused.
    const malformed = await api('POST', `/api/templates/${source.id}/clone`, { token: a.token, body: '{' });
    expect(malformed.status).toBe(400);
  });

  it('copies the files, so the clone survives deleting the source', async () => {
    const a = await createAccount();
    const bytes = await makePdf(3);
    const source = await create(a.token, {}, [bytes]);
    const clone = (await api('POST', `/api/templates/${source.id}/clone`, { token: a.token })).json;
    expect(clone.name).toBe('Template (Clone)');
    await api('DELETE', `/api/templates/${source.id}?permanently=true`, { token: a.token });
    const response = await SELF.fetch(clone.documents[0].url, { headers: { 'X-Auth-Token': a.token } });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('records a template.created event for the clone', async () => {
    const a = await createAccount();
    const source = await create(a.token);
    const clone = (await api('POST', `/api/templates/${source.id}/clone`, { token: a.token })).json;
    const event = await lastEvent(a.accountId);
    expect(event.event).toBe('template.created');
    expect(event.data.template).toMatchObject({ id: clone.id, source: 'clone', document_count: 1 });
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const source = await create(a.token);
    expect((await api('POST', `/api/templates/${source.id}/clone`, { token: b.token })).status).toBe(404);
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount();
    const source = await create(a.token);
    const reader = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('POST', `/api/templates/${source.id}/clone`, { token: reader })).status).toBe(403);
  });

  it('refuses a blank name with 422', async () => {
    const a = await createAccount();
    const source = await create(a.token);
    const res = await api('POST', `/api/templates/${source.id}/clone`, { token: a.token, body: { name: '' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe("name can't be blank.");
  });
});

describe('POST /api/templates/merge', () => {
  it('joins documents in order and unifies roles by name', async () => {
    const a = await createAccount();
    const one = await create(
      a.token,
      {
        name: 'One',
        submitters: [{ name: 'Buyer' }, { name: 'Seller' }],
        fields: [{ name: 'B1', type: 'signature', role: 'Buyer', areas: [area()] }],
      },
      [await makePdf(1)],
    );
    const two = (
      await api('POST', '/api/templates/pdf', {
        token: a.token,
        body: {
          name: 'Two',
          submitters: [{ name: 'buyer' }, { name: 'Witness' }],
          documents: [
            { file: toBase64(await makePdf(2)), fields: [{ name: 'B2', type: 'initials', role: 'buyer', areas: [area()] }] },
            { file: toBase64(await makePdf(3)), fields: [{ name: 'W', type: 'signature', role: 'Witness' }] },
          ],
        },
      })
    ).json;
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [one.id, two.id], name: 'Merged' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Merged', source: 'merge' });
    expect(res.json.documents.map((d: { page_count: number }) => d.page_count)).toEqual([1, 2, 3]);
    expect(res.json.submitters.map((s: { name: string }) => s.name)).toEqual(['Buyer', 'Seller', 'Witness']);
    const buyer = res.json.submitters[0].uuid;
    expect(res.json.schema.map((f: { name: string; submitter_uuid: string }) => [f.name, f.submitter_uuid === buyer])).toEqual([
      ['B1', true],
      ['B2', true],
      ['W', false],
    ]);
    expect(res.json.schema[1].areas[0].attachment_uuid).toBe(res.json.documents[1].uuid);
  });

  it('accepts integer ids in template_ids', async () => {
    const a = await createAccount();
    const one = await create(a.token);
    const two = await create(a.token);
    const ids = await (await shardOf(a.accountId))
      .prepare('SELECT id FROM templates WHERE public_id IN (?, ?) ORDER BY id')
      .bind(one.id, two.id)
      .all<{ id: number }>();
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: ids.results.map((r) => r.id) } });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('Template + Template');
  });

  it('answers 404 when one of the templates belongs to another account', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const mine = await create(a.token);
    const theirs = await create(b.token);
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [mine.id, theirs.id] } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe(`Template ${theirs.id} not found.`);
  });

  it('refuses a merge that would exceed 10 documents', async () => {
    const a = await createAccount();
    const six = Array.from({ length: 6 }, () => null);
    const pdf = await makePdf();
    const one = await create(
      a.token,
      {},
      six.map(() => pdf),
    );
    const two = await create(
      a.token,
      {},
      six.map(() => pdf),
    );
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [one.id, two.id] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The merged template would have 12 documents; a template can hold at most 10.');
    expect(await storedKeys(a.accountId)).toHaveLength(12);
  });

  it('refuses the same template named twice', async () => {
    const a = await createAccount();
    const one = await create(a.token);
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [one.id, one.id] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('template_ids must not name the same template twice.');
  });

  it('refuses fewer than two templates', async () => {
    const a = await createAccount();
    const one = await create(a.token);
    const res = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [one.id] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('template_ids must be at least 2 items.');
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount();
    const reader = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('POST', '/api/templates/merge', { token: reader, body: { template_ids: ['tpl_a', 'tpl_b'] } })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/templates/merge', { body: { template_ids: ['tpl_a', 'tpl_b'] } })).status).toBe(401);
  });
});

describe('archive and restore', () => {
  it('archives with DELETE, setting archived_at and recording template.archived', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('DELETE', `/api/templates/${created.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.archived_at).toEqual(expect.any(String));
    expect((await lastEvent(a.accountId)).event).toBe('template.archived');
  });

  it('hides archived templates from lists unless archived=true', async () => {
    const a = await createAccount();
    const kept = await create(a.token);
    const archived = await create(a.token);
    await api('DELETE', `/api/templates/${archived.id}`, { token: a.token });
    const active = await api('GET', '/api/templates', { token: a.token });
    expect(active.json.data.map((t: { id: string }) => t.id)).toEqual([kept.id]);
    const onlyArchived = await api('GET', '/api/templates?archived=true', { token: a.token });
    expect(onlyArchived.json.data.map((t: { id: string }) => t.id)).toEqual([archived.id]);
  });

  it('restores with PUT archived: false and records template.updated', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    await api('DELETE', `/api/templates/${created.id}`, { token: a.token });
    const res = await api('PUT', `/api/templates/${created.id}`, { token: a.token, body: { archived: false } });
    expect(res.status).toBe(200);
    expect(res.json.archived_at).toBeNull();
    expect((await lastEvent(a.accountId)).event).toBe('template.updated');
  });

  it('frees a plan slot when archiving and takes it back when restoring', async () => {
    const a = await createAccount({ plan: 'free' });
    const templates = [];
    for (let i = 0; i < 5; i += 1) templates.push(await create(a.token));
    await api('DELETE', `/api/templates/${templates[0].id}`, { token: a.token });
    await create(a.token);
    const res = await api('PUT', `/api/templates/${templates[0].id}`, { token: a.token, body: { archived: false } });
    expect(res.status).toBe(403);
    expect(res.json.upgrade_url).toBe('https://api.test/settings/billing');
  });

  it('answers 404 when archiving another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    expect((await api('DELETE', `/api/templates/${created.id}`, { token: b.token })).status).toBe(404);
    expect((await api('GET', `/api/templates/${created.id}`, { token: a.token })).json.archived_at).toBeNull();
  });

  it('answers 403 when archiving without templates:write', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const reader = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('DELETE', `/api/templates/${created.id}`, { token: reader })).status).toBe(403);
  });

  it('refuses a permanently value other than true or false', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    const res = await api('DELETE', `/api/templates/${created.id}?permanently=yes`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('permanently must be one of: true, false.');
  });
});

describe('DELETE /api/templates/{id}?permanently=true', () => {
  it('removes the rows and every stored file, replaced ones included', async () => {
    const a = await createAccount();
    const created = await create(a.token, {}, [await makePdf(), await makePdf()]);
    await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: created.documents[0].uuid, file: toBase64(await makePdf(2)) }] },
    });
    expect(await storedKeys(a.accountId)).toHaveLength(3);
    const res = await api('DELETE', `/api/templates/${created.id}?permanently=true`, { token: a.token });
    expect(res.status).toBe(204);
    expect(await storedKeys(a.accountId)).toEqual([]);
    expect((await api('GET', `/api/templates/${created.id}`, { token: a.token })).status).toBe(404);
    const rows = await (await shardOf(a.accountId))
      .prepare(
        'SELECT (SELECT count(*) FROM template_documents WHERE account_id = ?1) + (SELECT count(*) FROM template_versions WHERE account_id = ?1) AS n',
      )
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it('records template.archived when an active template is deleted', async () => {
    const a = await createAccount();
    const created = await create(a.token);
    await api('DELETE', `/api/templates/${created.id}?permanently=true`, { token: a.token });
    const event = await lastEvent(a.accountId);
    expect(event.event).toBe('template.archived');
    expect(event.data.template.id).toBe(created.id);
  });

  it('leaves another account’s template and files alone', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const created = await create(a.token);
    expect((await api('DELETE', `/api/templates/${created.id}?permanently=true`, { token: b.token })).status).toBe(404);
    expect(await storedKeys(a.accountId)).toHaveLength(1);
  });
});
