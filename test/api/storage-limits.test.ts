// The plan's storage (free 1 GB, pro 100 GB) is enforced on every upload: template files (create, clone,
// document changes) answer the plan-limit 403; signing-page files a 403 that names no plan.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/lib/plans';
import { api, createAccount, shardOf } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { signingFixture } from '../signing/fixtures';

const FREE_STORAGE = PLANS.free.limits.storageBytes;
const SIGNER_REFUSAL = 'This account cannot store more files right now; contact the sender.';

async function createTemplate(token: string) {
  const res = await api('POST', '/api/templates/pdf', {
    token,
    body: { name: 'Template', documents: [{ name: 'doc', file: toBase64(await makePdf(1)) }] },
  });
  expect(res.status).toBe(201);
  return res.json as { id: string; documents: { uuid: string }[] };
}

async function storedRows(accountId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare(
      `SELECT (SELECT coalesce(sum(byte_size), 0) FROM template_documents WHERE account_id = ?1)
          + (SELECT coalesce(sum(byte_size), 0) FROM signing_uploads WHERE account_id = ?1) AS bytes`,
    )
    .bind(accountId)
    .first<{ bytes: number }>();
  return row!.bytes;
}

/**
 * Brings the account to `room` bytes below its plan's storage with one large template document row —
 * a removed one, as a replaced file's earlier version is, whose file still counts.
 */
async function fillStorage(accountId: number, templatePublicId: string, room: number, limit = FREE_STORAGE): Promise<void> {
  const template = await (await shardOf(accountId))
    .prepare('SELECT id FROM templates WHERE public_id = ?')
    .bind(templatePublicId)
    .first<{ id: number }>();
  const filler = limit - (await storedRows(accountId)) - room;
  await (await shardOf(accountId))
    .prepare(
      `INSERT INTO template_documents (account_id, template_id, uuid, filename, content_type, byte_size, sha256, page_count, page_dimensions, r2_key, position, removed_at)
     VALUES (?, ?, ?, 'earlier version', 'application/pdf', ?, 'seed', 1, '[]', ?, 99, '2026-11-01T00:00:00.000Z')`,
    )
    .bind(accountId, template!.id, crypto.randomUUID(), filler, `seed/${crypto.randomUUID()}`)
    .run();
}

async function templateFiles(accountId: number): Promise<number> {
  return (await env.FILES.list({ prefix: `templates/${accountId}/` })).objects.length;
}

function expectPlanLimit(res: { status: number; json: any }) {
  expect(res.status).toBe(403);
  expect(res.json).toEqual({
    error: expect.stringMatching(
      /^Your free plan includes 1 GB of storage and 1024(\.0)? MB is in use; this upload needs [\d.]+ (bytes|KB)\. Delete documents or upgrade\.$/,
    ),
    code: 'plan_limit_reached',
    upgrade_url: 'https://api.test/settings/billing',
  });
}

describe('storage limit on template uploads', () => {
  it('refuses a template upload that would pass the free plan’s 1 GB with the plan-limit 403, storing nothing', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    await fillStorage(a.accountId, first.id, 100);
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { name: 'Too much', documents: [{ name: 'doc', file: toBase64(await makePdf(1)) }] },
    });
    expectPlanLimit(res);
    expect(await templateFiles(a.accountId)).toBe(1);
    const templates = await (await shardOf(a.accountId))
      .prepare('SELECT count(*) AS n FROM templates WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(templates!.n).toBe(1);
  });

  it('accepts a template upload that fits in the storage left', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    const pdf = await makePdf(1);
    await fillStorage(a.accountId, first.id, pdf.length);
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { name: 'Just fits', documents: [{ name: 'doc', file: toBase64(pdf) }] },
    });
    expect(res.status).toBe(201);
  });

  it('lets exactly as many concurrent template uploads through as the storage left holds', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    const pdf = await makePdf(1);
    await fillStorage(a.accountId, first.id, pdf.length + 10);
    const body = { name: 'Race', documents: [{ name: 'doc', file: toBase64(pdf) }] };
    const results = await Promise.all(Array.from({ length: 3 }, () => api('POST', '/api/templates/pdf', { token: a.token, body })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    for (const refused of results.filter((r) => r.status === 403)) expectPlanLimit(refused);
    expect(await templateFiles(a.accountId)).toBe(2);
  });

  it('refuses adding a document to a template past the storage limit', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    await fillStorage(a.accountId, first.id, 100);
    const res = await api('PUT', `/api/templates/${first.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'Annex', file: toBase64(await makePdf(2)) }] },
    });
    expectPlanLimit(res);
    expect(await templateFiles(a.accountId)).toBe(1);
  });

  it('refuses replacing a document’s file past the storage limit, since the earlier file is kept', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    await fillStorage(a.accountId, first.id, 100);
    const res = await api('PUT', `/api/templates/${first.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid: first.documents[0].uuid, file: toBase64(await makePdf(1)) }] },
    });
    expectPlanLimit(res);
  });

  it('refuses cloning a template past the storage limit', async () => {
    const a = await createAccount({ plan: 'free' });
    const first = await createTemplate(a.token);
    await fillStorage(a.accountId, first.id, 100);
    const res = await api('POST', `/api/templates/${first.id}/clone`, { token: a.token, body: {} });
    expectPlanLimit(res);
    expect(await templateFiles(a.accountId)).toBe(1);
  });
});

describe('storage limit on signing-page uploads', () => {
  async function upload(slug: string, fieldUuid: string, bytes: Uint8Array) {
    const form = new FormData();
    form.append('field_uuid', fieldUuid);
    form.append('file', new File([bytes], 'proof.pdf'));
    return api('POST', `/s/${slug}/attachments`, { body: form, headers: { Origin: 'https://api.test' } });
  }

  async function freeFixture() {
    const f = await signingFixture({ fields: [{ name: 'Proof', type: 'file' }] });
    await env.CONTROL_DB.prepare("UPDATE accounts SET plan = 'free' WHERE id = ?").bind(f.account.accountId).run();
    return f;
  }

  async function attachmentFiles(accountId: number): Promise<number> {
    return (await env.FILES.list({ prefix: `attachments/${accountId}/` })).objects.length;
  }

  it('refuses a file upload past the account’s storage with a 403 that names no plan, storing nothing', async () => {
    const f = await freeFixture();
    await fillStorage(f.account.accountId, f.templateId, 100);
    const res = await upload(f.submitters[0].slug, f.field('Proof'), await makePdf(1));
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: SIGNER_REFUSAL });
    expect(await attachmentFiles(f.account.accountId)).toBe(0);
  });

  it('records a stored file upload with its size, so it counts against the account’s storage', async () => {
    const f = await freeFixture();
    const pdf = await makePdf(1);
    const res = await upload(f.submitters[0].slug, f.field('Proof'), pdf);
    expect(res.status).toBe(201);
    const row = await (await shardOf(f.account.accountId))
      .prepare('SELECT submission_id, submitter_id, byte_size, r2_key FROM signing_uploads WHERE uuid = ?')
      .bind(res.json.attachment_uuid)
      .first<{ submission_id: number; submitter_id: number; byte_size: number; r2_key: string }>();
    expect(row).toMatchObject({ submission_id: f.submissionId, submitter_id: f.submitters[0].id, byte_size: pdf.length });
    expect(await env.FILES.head(row!.r2_key)).not.toBeNull();
    // The room left now fits one more such file, not two: the first upload counts.
    await fillStorage(f.account.accountId, f.templateId, pdf.length);
    expect((await upload(f.submitters[0].slug, f.field('Proof'), pdf)).status).toBe(201);
    expect((await upload(f.submitters[0].slug, f.field('Proof'), pdf)).status).toBe(403);
  });

  it('lets exactly as many concurrent uploads through as the storage left holds', async () => {
    const f = await freeFixture();
    const pdf = await makePdf(1);
    await fillStorage(f.account.accountId, f.templateId, pdf.length * 2 + 10);
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(f.submitters[0].slug, f.field('Proof'), pdf)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    expect(await attachmentFiles(f.account.accountId)).toBe(2);
  });

  it('deletes a submission’s upload rows with the submission', async () => {
    const f = await signingFixture({ fields: [{ name: 'Proof', type: 'file' }] });
    expect((await upload(f.submitters[0].slug, f.field('Proof'), await makePdf(1))).status).toBe(201);
    const res = await api('DELETE', `/api/submissions/${f.submissionId}?permanently=true`, { token: f.account.token });
    expect(res.status).toBe(204);
    const rows = await (await shardOf(f.account.accountId))
      .prepare('SELECT count(*) AS n FROM signing_uploads WHERE submission_id = ?')
      .bind(f.submissionId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect(await attachmentFiles(f.account.accountId)).toBe(0);
  });
});
