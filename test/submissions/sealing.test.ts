import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope, type ShardScope } from '../../src/db/shards';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { sweepUnsealed } from '../../src/scheduled/sealing-sweep';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import type { SealingQueueBody } from '../../src/env';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { completeValues, createTemplate, outboxRows, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

// A 2×2 PNG standing in for a drawn signature.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGMQUGgAIgYIBQARjgLBr5IL3wAAAABJRU5ErkJggg==';

let owner: TestAccount;
let template: TemplateFixture;
/** The owner's shard as background work sees it (its database, the control database, stamped queues). */
let scope: ShardScope;
/** The owner's shard database, where its submissions are stored. */
let shard: D1Database;

beforeAll(async () => {
  owner = await createAccount({ name: 'Sealing Co' });
  scope = shardScope(env, await shardNumberOf(owner.accountId));
  shard = await shardOf(owner.accountId);
  template = await createTemplate(owner.token, ['Buyer', 'Seller']);
});

async function completedSubmission(): Promise<{ id: number }> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters: [
        { role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, name: 'Zoë Buyer' },
        { role: 'Seller', email: `seller-${crypto.randomUUID().slice(0, 8)}@example.com`, name: 'Sam Seller' },
      ],
    },
  });
  expect(res.status).toBe(201);
  const [buyer, seller] = res.json.submitters;
  const values = { ...completeValues('Buyer'), 'Buyer Name': 'Zoë Łukasiewicz', 'Buyer Signature': PNG };
  expect((await api('PUT', `/api/submitters/${buyer.id}`, { token: owner.token, body: { values, completed: true } })).status).toBe(200);
  expect(
    (await api('PUT', `/api/submitters/${seller.id}`, { token: owner.token, body: { values: completeValues('Seller'), completed: true } }))
      .status,
  ).toBe(200);
  return { id: res.json.id };
}

let counter = 0;
async function runSealingQueue(submissionId: number) {
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `seal-${++counter}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard: scope.shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

/** A binary download through the Worker (the `api` helper reads bodies as text). */
async function download(path: string, token = owner.token) {
  const res = await SELF.fetch(`https://api.test${path}`, { headers: { 'X-Auth-Token': token } });
  return { status: res.status, type: res.headers.get('Content-Type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('the sealing job', () => {
  it('seals every document of a completed submission: stamped values, audit trail, a valid signature over the whole file', async () => {
    const s = await completedSubmission();
    const result = await runSealingQueue(s.id);
    expect(result.explicitAcks).toHaveLength(1);

    const list = await api('GET', `/api/submissions/${s.id}/documents`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json.sealed).toBe(true);
    expect(list.json.documents).toHaveLength(1);
    const [document] = list.json.documents;
    expect(document.download_url).toBe(`https://api.test/api/submissions/${s.id}/documents/${document.id}`);
    expect(list.json.combined_download_url).toBe(`https://api.test/api/submissions/${s.id}/documents/combined`);

    const file = await download(`/api/submissions/${s.id}/documents/${document.id}`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(file.bytes.length).toBe(document.byte_size);
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', file.bytes))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(digest).toBe(document.sha256);

    const { pdfsig, qpdf, text } = await checkPdf(file.bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(pdfsig.output).toContain('Signer Certificate Common Name: Sealing Co (Signing Service)');
    expect(qpdf.code).toBe(0);
    // Values at their areas, typed signature text, and the audit trail with signers and original hash.
    expect(text.output).toContain('Zoë Łukasiewicz');
    expect(text.output).toContain('Seller Person');
    // The date values (stored 2026-11-23) are written as the account's locale (en-US) writes dates.
    expect(text.output).toContain('November 23, 2026');
    expect(text.output).not.toContain('2026-11-23');
    expect(text.output).toContain('Audit trail');
    expect(text.output).toContain('Sam Seller');
    expect(text.output).toContain(document.original_sha256);
  });

  it('fires document.generated once per document and marks the submission sealed; a second run changes nothing', async () => {
    const s = await completedSubmission();
    await runSealingQueue(s.id);
    const events = await outboxRows("event = 'document.generated' AND json_extract(data, '$.submission.id') = ?", s.id);
    expect(events).toHaveLength(1);
    expect(events[0].data.document).toMatchObject({
      document_type: 'signed_pdf',
      download_url: expect.stringContaining(`/api/submissions/${s.id}/documents/`),
    });
    const sealedAt = (await shard.prepare('SELECT sealed_at FROM submissions WHERE id = ?').bind(s.id).first<{ sealed_at: string }>())!
      .sealed_at;
    expect(sealedAt).not.toBeNull();

    expect(await sealSubmission(scope.env, scope, s.id)).toBe('already-sealed');
    await runSealingQueue(s.id);
    expect(await outboxRows("event = 'document.generated' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    const rows = await shard
      .prepare('SELECT COUNT(*) AS n FROM submission_documents WHERE submission_id = ?')
      .bind(s.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it('finishes a run that stopped after some documents without sealing those again', async () => {
    const s = await completedSubmission();
    await sealSubmission(scope.env, scope, s.id);
    // As if the run had died after recording the document but before marking the submission sealed.
    await shard.prepare('UPDATE submissions SET sealed_at = NULL WHERE id = ?').bind(s.id).run();
    expect(await sealSubmission(scope.env, scope, s.id)).toBe('sealed');
    const rows = await shard
      .prepare('SELECT COUNT(*) AS n FROM submission_documents WHERE submission_id = ?')
      .bind(s.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it('leaves a submission that is not completed alone', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        submitters: [
          { role: 'Buyer', email: 'b@example.com' },
          { role: 'Seller', email: 's@example.com' },
        ],
      },
    });
    expect(await sealSubmission(scope.env, scope, res.json.id)).toBe('not-completed');
    const list = await api('GET', `/api/submissions/${res.json.id}/documents`, { token: owner.token });
    expect(list.json).toEqual({
      sealed: false,
      sealing: { status: 'not_completed', reason: null, failed_at: null },
      documents: [],
      combined_download_url: null,
    });
    const early = await api('GET', `/api/submissions/${res.json.id}/documents/combined`, { token: owner.token });
    expect(early.status).toBe(409);
    expect(early.json.error).toBe('The submission is not completed yet, so it has no sealed documents.');
  });

  it('the cron sweep re-enqueues completed submissions still unsealed after 10 minutes, not recent or sealed ones', async () => {
    const stale = await completedSubmission();
    const recent = await completedSubmission();
    const sealed = await completedSubmission();
    await sealSubmission(scope.env, scope, sealed.id);
    const longAgo = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    await shard.prepare('UPDATE submissions SET completed_at = ? WHERE id IN (?, ?)').bind(longAgo, stale.id, sealed.id).run();
    const queued = await sweepUnsealed(scope, Date.now());
    expect(queued).toContain(stale.id);
    expect(queued).not.toContain(recent.id);
    expect(queued).not.toContain(sealed.id);
  });
});

describe('downloads', () => {
  let sealedId: number;
  let documentId: number;
  beforeAll(async () => {
    sealedId = (await completedSubmission()).id;
    await sealSubmission(scope.env, scope, sealedId);
    documentId = (await api('GET', `/api/submissions/${sealedId}/documents`, { token: owner.token })).json.documents[0].id;
  });

  it('is reported invalid by pdfsig when one byte of the download changes', async () => {
    const { bytes } = await download(`/api/submissions/${sealedId}/documents/${documentId}`);
    const text = new TextDecoder('latin1').decode(bytes);
    const at = text.lastIndexOf('/M (D:') + '/M (D:'.length + 3;
    bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
    const { pdfsig } = await checkPdf(bytes);
    expect(pdfsig.output).not.toContain('Signature is Valid.');
  });

  it('merges every sealed document into one PDF sealed again', async () => {
    const file = await download(`/api/submissions/${sealedId}/documents/combined`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    const { pdfsig, qpdf, text } = await checkPdf(file.bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(pdfsig.output).not.toContain('Signature #2');
    expect(qpdf.code).toBe(0);
    expect(text.output).toContain('Audit trail');
  });

  it('answers the same combined PDF on every download, stored beside the sealed files', async () => {
    const first = await download(`/api/submissions/${sealedId}/documents/combined`);
    const second = await download(`/api/submissions/${sealedId}/documents/combined`);
    expect(second.status).toBe(200);
    expect(second.bytes).toEqual(first.bytes);
    const stored = await env.FILES.get(`sealed/${owner.accountId}/${sealedId}/combined.pdf`);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(first.bytes);
  });

  it('stores one combined PDF when two first downloads arrive at once, and answers it to both', async () => {
    const id = (await completedSubmission()).id;
    await sealSubmission(scope.env, scope, id);
    const [a, b] = await Promise.all([
      download(`/api/submissions/${id}/documents/combined`),
      download(`/api/submissions/${id}/documents/combined`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.bytes).toEqual(b.bytes);
    expect((await checkPdf(a.bytes)).pdfsig.output).toContain('Signature is Valid.');
  });

  it('removes the stored combined PDF with the submission when deleted permanently', async () => {
    const id = (await completedSubmission()).id;
    await sealSubmission(scope.env, scope, id);
    expect((await download(`/api/submissions/${id}/documents/combined`)).status).toBe(200);
    expect((await api('DELETE', `/api/submissions/${id}?permanently=true`, { token: owner.token })).status).toBe(204);
    expect((await env.FILES.list({ prefix: `sealed/${owner.accountId}/${id}/` })).objects).toEqual([]);
  });

  it('answers a zip of the individual sealed files with ?separate=true, each still valid', async () => {
    const file = await download(`/api/submissions/${sealedId}/documents/combined?separate=true`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/zip');
    const entries = unzipSync(file.bytes);
    const names = Object.keys(entries);
    expect(names).toEqual(['agreement.pdf']);
    const { pdfsig } = await checkPdf(entries[names[0]]);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
  });

  it('answers 404 for another account, for an unknown document, and 401/403 without a token or scope', async () => {
    const other = await createAccount();
    expect((await api('GET', `/api/submissions/${sealedId}/documents`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `/api/submissions/${sealedId}/documents/${documentId}`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `/api/submissions/${sealedId}/documents/combined`, { token: other.token })).status).toBe(404);
    const unknown = await api('GET', `/api/submissions/${sealedId}/documents/999999`, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('Document not found.');
    expect((await api('GET', `/api/submissions/${sealedId}/documents`)).status).toBe(401);
    expect((await api('GET', `/api/submissions/${sealedId}/documents/${documentId}`)).status).toBe(401);
    const scoped = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', `/api/submissions/${sealedId}/documents`, { token: scoped.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:read');
  });

  it('is recognised by POST /api/tools/verify as this account’s document', async () => {
    const { bytes } = await download(`/api/submissions/${sealedId}/documents/${documentId}`);
    const form = new FormData();
    form.set('file', new File([bytes], 'agreement.pdf', { type: 'application/pdf' }));
    const mine = await api('POST', '/api/tools/verify', { token: owner.token, body: form });
    expect(mine.json).toMatchObject({ ours: true, unmodified: true });
    const other = await createAccount();
    const theirs = await api('POST', '/api/tools/verify', { token: other.token, body: form });
    expect(theirs.json).toMatchObject({ ours: false, unmodified: true });
  });
});

describe('the sealing sweep backs off', () => {
  it('re-queues an unsealable submission with growing gaps and gives up after the last sweep', async () => {
    const { sweepBackoffMs, MAX_SEAL_SWEEPS } = await import('../../src/scheduled/sealing-sweep');
    const broken = await completedSubmission();
    // Its document now points at a file that is not in R2: the job can never seal it.
    const { document_ids: ids } = (await shard
      .prepare('SELECT document_ids FROM submissions WHERE id = ?')
      .bind(broken.id)
      .first<{ document_ids: string }>())!;
    const gone = await shard
      .prepare(
        `INSERT INTO template_documents (account_id, template_id, uuid, filename, content_type, byte_size, sha256, page_count, page_dimensions, r2_key, position, removed_at)
       SELECT account_id, template_id, uuid, filename, content_type, byte_size, sha256, page_count, page_dimensions, 'missing/' || id, position, '2020-01-01T00:00:00Z'
       FROM template_documents WHERE id = ? RETURNING id`,
      )
      .bind(JSON.parse(ids)[0])
      .first<{ id: number }>();
    const longAgo = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    await shard
      .prepare('UPDATE submissions SET completed_at = ?, document_ids = ? WHERE id = ?')
      .bind(longAgo, JSON.stringify([gone!.id]), broken.id)
      .run();
    let now = Date.now();
    expect(await sweepUnsealed(scope, now)).toContain(broken.id);
    // Swept a minute later: not yet due again.
    expect(await sweepUnsealed(scope, now + 60_000)).not.toContain(broken.id);
    now += sweepBackoffMs(1);
    expect(await sweepUnsealed(scope, now)).toContain(broken.id);
    for (let sweep = 2; sweep < MAX_SEAL_SWEEPS; sweep += 1) {
      now += sweepBackoffMs(sweep);
      expect(await sweepUnsealed(scope, now)).toContain(broken.id);
    }
    now += 7 * 24 * 60 * 60 * 1000;
    expect(await sweepUnsealed(scope, now)).not.toContain(broken.id);
    const row = await shard.prepare('SELECT seal_sweeps FROM submissions WHERE id = ?').bind(broken.id).first<{ seal_sweeps: number }>();
    expect(row!.seal_sweeps).toBe(MAX_SEAL_SWEEPS);
  });
});
