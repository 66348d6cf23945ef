// A submission whose sealing failed its last retry says so in GET /api/submissions/{id}/documents, and
// POST /api/submissions/{id}/documents/reseal queues it again (issue 21, point 3).
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { SEALING_MAX_ATTEMPTS } from '../../src/queues/sealing';
import type { ShardStamp } from '../../src/lib/shard-queues';
import type { SealingQueueBody } from '../../src/env';
import { addUser, api, createAccount, shardOf, type TestAccount, clientAddress } from '../helpers';
import { shardNumberOf, shardNumberOfRow } from '../shard-fixtures';
import { checkPdf } from '../pdf-tools';
import { completeValues, createTemplate } from '../submission-fixtures';

type Setup = { owner: TestAccount; id: number; restoreOriginal: () => Promise<void> };

async function createSubmission(owner: TestAccount) {
  const template = await createTemplate(owner.token, ['Buyer']);
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters: [{ role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, values: completeValues('Buyer') }],
    },
  });
  expect(res.status).toBe(201);
  return { id: res.json.id as number, submitterId: res.json.submitters[0].id as number };
}

/**
 * A completed submission that cannot be sealed: its template's original PDF is gone from R2 before it
 * completes, so every sealing run fails. `restoreOriginal` puts the file back.
 */
async function unsealableSubmission(): Promise<Setup> {
  const owner = await createAccount({ name: 'Reseal Co' });
  const { id, submitterId } = await createSubmission(owner);
  const { r2_key } = (await (
    await shardOf(owner.accountId)
  )
    .prepare('SELECT d.r2_key FROM template_documents d JOIN submissions s ON s.template_id = d.template_id WHERE s.id = ?')
    .bind(id)
    .first<{ r2_key: string }>())!;
  const bytes = await (await env.FILES.get(r2_key))!.arrayBuffer();
  await env.FILES.delete(r2_key);
  expect((await api('PUT', `/api/submitters/${submitterId}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
  return { owner, id, restoreOriginal: async () => void (await env.FILES.put(r2_key, bytes)) };
}

let counter = 0;
/** A sealing message for this submission, stamped with its shard as producers stamp it. */
async function deliverSealing(submissionId: number, attempts: number) {
  const shard = await shardNumberOfRow('submissions', submissionId);
  const batch = createMessageBatch<SealingQueueBody>('signing-service-sealing', [
    {
      id: `reseal-${++counter}`,
      timestamp: new Date(),
      attempts,
      body: { type: 'seal', submissionId, shard } as SealingQueueBody & ShardStamp,
    },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

/** What POST …/reseal sent to the sealing queue (the test queue has no consumer). */
let sent: SealingQueueBody[] = [];

/**
 * POST …/reseal through the Worker with a sealing queue producer that records what is sent: the test
 * configuration's sealing queue has no consumer, so the message is read here and delivered by hand.
 */
async function resealRecordingQueue(s: Pick<Setup, 'owner' | 'id'>) {
  sent = [];
  const queue = {
    send: async (body: SealingQueueBody) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: SealingQueueBody }>) => void sent.push(...[...messages].map((m) => m.body)),
  };
  const request = new Request(`https://api.test/api/submissions/${s.id}/documents/reseal`, {
    method: 'POST',
    headers: { 'X-Auth-Token': s.owner.token, 'CF-Connecting-IP': clientAddress() },
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, { ...env, SEALING_QUEUE: queue as unknown as Queue<SealingQueueBody> }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function documents(s: Pick<Setup, 'owner' | 'id'>) {
  return api('GET', `/api/submissions/${s.id}/documents`, { token: s.owner.token });
}

describe('GET /api/submissions/{id}/documents › sealing', () => {
  it('says not_completed for a submission still being signed', async () => {
    const owner = await createAccount();
    const { id } = await createSubmission(owner);
    const res = await documents({ owner, id });
    expect(res.status).toBe(200);
    expect(res.json.sealing).toEqual({ status: 'not_completed', reason: null, failed_at: null });
  });

  it('says in_progress while sealing fails but has retries left, and the message is retried', async () => {
    const s = await unsealableSubmission();
    const result = await deliverSealing(s.id, SEALING_MAX_ATTEMPTS - 1);
    expect(result.retryMessages).toHaveLength(1);
    expect((await documents(s)).json.sealing).toEqual({ status: 'in_progress', reason: null, failed_at: null });
  });

  it('says failed, with the reason and when, once the last retry failed', async () => {
    const s = await unsealableSubmission();
    const result = await deliverSealing(s.id, SEALING_MAX_ATTEMPTS);
    expect(result.retryMessages).toHaveLength(0);
    expect(result.explicitAcks).toHaveLength(1);
    const res = await documents(s);
    expect(res.json.sealed).toBe(false);
    expect(res.json.sealing).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(
        /^The document "agreement\.pdf" \(template document \d+\) is missing from storage, so it cannot be sealed\.$/,
      ),
    });
    expect(Date.parse(res.json.sealing.failed_at)).not.toBeNaN();
  });

  it('names the failure when a sealed document is downloaded before resealing', async () => {
    const s = await unsealableSubmission();
    await deliverSealing(s.id, SEALING_MAX_ATTEMPTS);
    const res = await api('GET', `/api/submissions/${s.id}/documents/combined`, { token: s.owner.token });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatch(
      /^Sealing this submission failed: The document "agreement\.pdf" .* Queue it again with POST \/api\/submissions\/\d+\/documents\/reseal\.$/,
    );
  });
});

describe('POST /api/submissions/{id}/documents/reseal', () => {
  it('clears the failure and sends the submission to the sealing queue', async () => {
    const s = await unsealableSubmission();
    await deliverSealing(s.id, SEALING_MAX_ATTEMPTS);
    const res = await resealRecordingQueue(s);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ sealed: false, sealing: { status: 'in_progress', reason: null, failed_at: null } });
    // Stamped with the account's shard, so the consumer reads that shard's rows.
    expect(sent).toEqual([{ type: 'seal', submissionId: s.id, shard: await shardNumberOf(s.owner.accountId) }]);
    expect((await documents(s)).json.sealing).toEqual({ status: 'in_progress', reason: null, failed_at: null });
  });

  it('once the cause is mended, the queued message seals the submission with a valid signature and clears the failure', async () => {
    const s = await unsealableSubmission();
    await deliverSealing(s.id, SEALING_MAX_ATTEMPTS);
    await s.restoreOriginal();
    expect((await resealRecordingQueue(s)).status).toBe(202);
    const [message] = sent;
    const batch = createMessageBatch<SealingQueueBody>('signing-service-sealing', [
      { id: `reseal-${++counter}`, timestamp: new Date(), attempts: 1, body: message },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    expect((await documents(s)).json.sealing).toEqual({ status: 'sealed', reason: null, failed_at: null });
    const file = await env.FILES.get(
      (await (
        await shardOf(s.owner.accountId)
      )
        .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
        .bind(s.id)
        .first<{ r2_key: string }>())!.r2_key,
    );
    const { pdfsig } = await checkPdf(new Uint8Array(await file!.arrayBuffer()));
    expect(pdfsig.output).toContain('Signature is Valid.');
  });

  it("resets the sealing sweep's backoff so the safety net covers the new attempt", async () => {
    const s = await unsealableSubmission();
    await (await shardOf(s.owner.accountId))
      .prepare("UPDATE submissions SET seal_sweeps = 12, seal_swept_at = '2026-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(s.id)
      .run();
    expect((await api('POST', `/api/submissions/${s.id}/documents/reseal`, { token: s.owner.token })).status).toBe(202);
    const row = await (await shardOf(s.owner.accountId))
      .prepare('SELECT seal_sweeps, seal_swept_at FROM submissions WHERE id = ?')
      .bind(s.id)
      .first();
    expect(row).toEqual({ seal_sweeps: 0, seal_swept_at: null });
  });

  it('answers 422 for a submission that is not completed', async () => {
    const owner = await createAccount();
    const { id } = await createSubmission(owner);
    const res = await api('POST', `/api/submissions/${id}/documents/reseal`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The submission is not completed, so it has no documents to seal yet.');
  });

  it('answers 422 for a submission already sealed', async () => {
    const owner = await createAccount();
    const { id, submitterId } = await createSubmission(owner);
    expect((await api('PUT', `/api/submitters/${submitterId}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
    await deliverSealing(id, 1);
    expect((await documents({ owner, id })).json.sealed).toBe(true);
    const res = await api('POST', `/api/submissions/${id}/documents/reseal`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The documents of this submission are already sealed.');
  });

  it("answers 404 for another account's submission and changes nothing", async () => {
    const s = await unsealableSubmission();
    await deliverSealing(s.id, SEALING_MAX_ATTEMPTS);
    const stranger = await createAccount();
    const res = await api('POST', `/api/submissions/${s.id}/documents/reseal`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect((await documents(s)).json.sealing.status).toBe('failed');
  });

  it('answers 403 for a token without submissions:write', async () => {
    const s = await unsealableSubmission();
    const reader = await addUser(s.owner.accountId, 'admin', ['submissions:read']);
    const res = await api('POST', `/api/submissions/${s.id}/documents/reseal`, { token: reader.token });
    expect(res.status).toBe(403);
  });

  it('is described in the OpenAPI document with the sealing status schema', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(doc.paths['/submissions/{id}/documents/reseal'].post.responses).toHaveProperty('202');
    expect(doc.components.schemas.SealedDocumentList.properties).toHaveProperty('sealing');
    expect(doc.components.schemas.SealingStatus.properties.status.enum).toEqual(['not_completed', 'in_progress', 'sealed', 'failed']);
  });
});
