// Issue 28 › 9: every URL in a delivered payload works when it arrives. Events whose payloads list a
// submission's signed documents (submission.completed, form.completed, submitter.completed,
// document.generated) reach a real webhook receiver only once the documents are sealed; a submission
// whose sealing failed keeps them back until a reseal seals it (docs/webhooks.md › Events and documents).
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  SELF,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { SEALING_MAX_ATTEMPTS } from '../../src/queues/sealing';
import type { SealingQueueBody } from '../../src/env';
import { api, createAccount, shardOf, type TestAccount, clientAddress } from '../helpers';
import { open, seal, submissionOf } from '../document-link-fixtures';
import { shardNumberOf } from '../shard-fixtures';
import { deliverPending, drainFor, receiverHook } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

type Delivered = { event: string; data: Record<string, any> }; // payload bodies are asserted field by field

const DOCUMENT_EVENTS = ['submission.completed', 'form.completed', 'submitter.completed', 'document.generated'];

async function linkedAccount() {
  const owner = await createAccount();
  expect((await api('PUT', '/api/settings/document_links', { token: owner.token, body: { enabled: true } })).status).toBe(200);
  const { hook, receiver } = await receiverHook(owner.token, { events: DOCUMENT_EVENTS });
  return { owner, hookId: hook.id, receiver };
}

/** What the receiver has got so far, after the fan-out and every pending delivery ran. */
async function delivered(owner: TestAccount, hookId: number, receiver: string): Promise<Delivered[]> {
  await drainFor(owner.accountId);
  await deliverPending(hookId);
  return (await receivedBy(receiver)).map((d) => JSON.parse(d.body) as Delivered);
}

/** Every document a payload links to, whatever the event's shape. */
function documentsOf(body: Delivered): { download_url: string; url?: string }[] {
  if (body.event === 'document.generated') return [body.data.document];
  if (body.event.startsWith('submission.')) return body.data.submission.documents;
  return body.data.documents;
}

async function fetchWithToken(url: string, token: string) {
  const res = await SELF.fetch(url, { headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': clientAddress() } });
  return { status: res.status, type: res.headers.get('Content-Type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-';

/** The sealing job's last attempt on a submission whose document is gone: the failure is recorded. */
async function failSealing(owner: TestAccount, submissionId: number) {
  const shard = await shardNumberOf(owner.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `fail-${submissionId}`, timestamp: new Date(), attempts: SEALING_MAX_ATTEMPTS, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
}

describe('events that link to signed documents', { timeout: 30_000 }, () => {
  it('reach the receiver only after sealing, and their download_url and public url answer 200 with the PDF on arrival', async () => {
    const { owner, hookId, receiver } = await linkedAccount();
    const s = await submissionOf(owner);

    // Completed, not sealed yet: nothing linking to the documents goes out.
    expect(await delivered(owner, hookId, receiver)).toEqual([]);

    await seal(owner, s.id);
    const bodies = await delivered(owner, hookId, receiver);
    expect(bodies.map((b) => b.event).sort()).toEqual([...DOCUMENT_EVENTS].sort());
    for (const body of bodies) {
      const documents = documentsOf(body);
      expect(documents.length, body.event).toBe(1);
      for (const document of documents) {
        const download = await fetchWithToken(document.download_url, owner.token);
        expect(download.status, `${body.event} download_url`).toBe(200);
        expect(download.type).toBe('application/pdf');
        expect(isPdf(download.bytes)).toBe(true);
        const pub = await open(document.url!);
        expect(pub.status, `${body.event} url`).toBe(200);
        expect(pub.bytes).toEqual(download.bytes);
      }
    }
  });

  it('are delivered once, however often sealing runs', async () => {
    const { owner, hookId, receiver } = await linkedAccount();
    const s = await submissionOf(owner);
    await seal(owner, s.id);
    await seal(owner, s.id);
    await delivered(owner, hookId, receiver);
    await seal(owner, s.id);
    const bodies = await delivered(owner, hookId, receiver);
    expect(bodies.filter((b) => b.event === 'submission.completed')).toHaveLength(1);
  });

  it('stay held while sealing has failed and go out when a reseal seals the documents', async () => {
    const { owner, hookId, receiver } = await linkedAccount();
    const s = await submissionOf(owner);
    const db = await shardOf(owner.accountId);
    const { r2_key: key } = (await db
      .prepare('SELECT r2_key FROM template_documents WHERE id = ?')
      .bind(s.documentId)
      .first<{ r2_key: string }>())!;
    const original = await (await env.FILES.get(key))!.arrayBuffer();
    await env.FILES.delete(key);
    await failSealing(owner, s.id);
    expect((await api('GET', `/api/submissions/${s.id}/documents`, { token: owner.token })).json.sealing.status).toBe('failed');
    expect(await delivered(owner, hookId, receiver)).toEqual([]);

    await env.FILES.put(key, original);
    expect((await api('POST', `/api/submissions/${s.id}/documents/reseal`, { token: owner.token })).status).toBe(202);
    await seal(owner, s.id);
    const completed = (await delivered(owner, hookId, receiver)).find((b) => b.event === 'submission.completed')!;
    expect((await fetchWithToken(completed.data.submission.documents[0].download_url, owner.token)).status).toBe(200);
  });

  it('wait for the seal too when the completion sweep completes a submission left pending', async () => {
    const { owner, hookId, receiver } = await linkedAccount();
    const s = await submissionOf(owner, { complete: false });
    const db = await shardOf(owner.accountId);
    // The state the completion race left before issue 21: every signer completed, the submission pending.
    await db
      .prepare("UPDATE submitters SET status = 'completed', completed_at = ? WHERE submission_id = ?")
      .bind(new Date().toISOString(), s.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db.prepare('SELECT status FROM submissions WHERE id = ?').bind(s.id).first<{ status: string }>())!.status).toBe(
      'completed',
    );
    expect((await delivered(owner, hookId, receiver)).map((b) => b.event)).not.toContain('submission.completed');

    await seal(owner, s.id);
    const completed = (await delivered(owner, hookId, receiver)).filter((b) => b.event === 'submission.completed');
    expect(completed).toHaveLength(1);
    expect((await open(completed[0].data.submission.documents[0].url)).status).toBe(200);
  });

  it('are dropped, never delivered, when the unsealed submission is deleted permanently', async () => {
    const { owner, hookId, receiver } = await linkedAccount();
    const s = await submissionOf(owner);
    const db = await shardOf(owner.accountId);
    const held = () => db.prepare('SELECT count(*) AS n FROM events WHERE held_for_seal = ?').bind(s.id).first<{ n: number }>();
    expect((await held())!.n).toBeGreaterThan(0);
    expect((await api('DELETE', `/api/submissions/${s.id}?permanently=true`, { token: owner.token })).status).toBeLessThan(300);
    expect((await held())!.n).toBe(0);
    expect(await delivered(owner, hookId, receiver)).toEqual([]);
  });

  it('do not hold events that link to no document', async () => {
    const owner = await createAccount();
    const { hook, receiver } = await receiverHook(owner.token, { events: ['form.completed', 'submission.created'] });
    await submissionOf(owner, { complete: false });
    const bodies = await delivered(owner, hook.id, receiver);
    expect(bodies.map((b) => b.event)).toEqual(['submission.created']);
  });
});
