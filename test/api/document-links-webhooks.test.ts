// Public links in webhook payloads: documents carry `url` and `url_expires_at` when the account has links
// on, not otherwise, and a redelivery replays the original bytes, link included (issue 20 › 1).
import { describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount } from '../helpers';
import { open, seal, storedPdf, submissionOf } from '../document-link-fixtures';
import { deliverPending, deliveryRows, drainFor, receiverHook } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

type Delivered = { event: string; data: Record<string, any> }; // payload bodies are asserted field by field

async function accountWithHook(settings: Record<string, unknown> | null, events = ['submission.completed', 'form.completed']) {
  const owner = await createAccount();
  if (settings) expect((await api('PUT', '/api/settings/document_links', { token: owner.token, body: settings })).status).toBe(200);
  const { hook, receiver } = await receiverHook(owner.token, { events });
  return { owner, hook, receiver };
}

/** A completed submission, sealed: events that link to its documents wait for them (docs/webhooks.md). */
async function sealedSubmissionOf(owner: TestAccount) {
  const s = await submissionOf(owner);
  await seal(owner, s.id);
  return s;
}

async function deliveredBodies(owner: TestAccount, hookId: number, receiver: string) {
  await drainFor(owner.accountId);
  await deliverPending(hookId);
  const got = await receivedBy(receiver);
  return got.map((d) => ({ raw: d.body, json: JSON.parse(d.body) as Delivered }));
}

const byEvent = (bodies: { json: Delivered }[], event: string) => bodies.find((b) => b.json.event === event)!.json;

describe('documents in webhook payloads', { timeout: 30_000 }, () => {
  it('carry a public url and url_expires_at in submission.completed and form.completed when links are on', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true, expires_in_days: 10 });
    await sealedSubmissionOf(owner);
    const bodies = await deliveredBodies(owner, hook.id, receiver);
    for (const document of [
      ...byEvent(bodies, 'submission.completed').data.submission.documents,
      ...byEvent(bodies, 'form.completed').data.documents,
    ]) {
      expect(document.url).toMatch(/^https:\/\/api\.test\/l\//);
      expect(Date.parse(document.url_expires_at) - Date.now()).toBeGreaterThan(9 * 86_400_000);
      expect(Date.parse(document.url_expires_at) - Date.now()).toBeLessThanOrEqual(10 * 86_400_000);
    }
  });

  it('carry url_expires_at null when links never expire', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true, expires_in_days: null });
    await sealedSubmissionOf(owner);
    const [document] = byEvent(await deliveredBodies(owner, hook.id, receiver), 'submission.completed').data.submission.documents;
    expect(document.url).toMatch(/\/l\//);
    expect(document.url_expires_at).toBeNull();
  });

  it('carry a url that opens the sealed PDF without credentials', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true });
    const s = await sealedSubmissionOf(owner);
    const [document] = byEvent(await deliveredBodies(owner, hook.id, receiver), 'submission.completed').data.submission.documents;
    const res = await open(document.url);
    expect(res.status).toBe(200);
    expect(res.bytes).toEqual(await storedPdf(owner, s.id, s.documentId));
  });

  it('carry a url in document.generated once the document is sealed', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true }, ['document.generated']);
    await sealedSubmissionOf(owner);
    const body = byEvent(await deliveredBodies(owner, hook.id, receiver), 'document.generated');
    expect(body.data.document.url).toMatch(/\/l\//);
    expect((await open(body.data.document.url)).status).toBe(200);
  });

  it('carry neither url nor url_expires_at while links are off', async () => {
    const { owner, hook, receiver } = await accountWithHook(null);
    await sealedSubmissionOf(owner);
    const bodies = await deliveredBodies(owner, hook.id, receiver);
    const [document] = byEvent(bodies, 'submission.completed').data.submission.documents;
    expect(document.download_url).toMatch(/\/api\/submissions\//);
    expect(Object.keys(document)).not.toContain('url');
    expect(Object.keys(document)).not.toContain('url_expires_at');
  });

  it('are replayed byte for byte by a redelivery, link included', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true }, ['submission.completed']);
    await sealedSubmissionOf(owner);
    const [first] = await deliveredBodies(owner, hook.id, receiver);
    expect(first.json.data.submission.documents[0].url).toMatch(/\/l\//);
    // Minting again now would give a different expiry: the replay must not mint.
    await api('PUT', '/api/settings/document_links', { token: owner.token, body: { expires_in_days: 3 } });
    const [row] = await deliveryRows(hook.id);
    expect((await api('POST', `/api/webhooks/${hook.id}/deliveries/${row.id}/redeliver`, { token: owner.token })).status).toBe(201);
    await deliverPending(hook.id);
    const got = await receivedBy(receiver);
    expect(got).toHaveLength(2);
    expect(got[1].body).toBe(got[0].body);
  });
});

describe('documents in the payload of archiving a completed submission', () => {
  it('carry a url when links are on', async () => {
    const { owner, hook, receiver } = await accountWithHook({ enabled: true }, ['submission.archived']);
    const s = await submissionOf(owner);
    expect((await api('DELETE', `/api/submissions/${s.id}`, { token: owner.token })).status).toBe(200);
    // Archived before its documents were sealed: the event waits for them as the completion's does.
    await seal(owner, s.id);
    const [document] = byEvent(await deliveredBodies(owner, hook.id, receiver), 'submission.archived').data.submission.documents;
    expect(document.url).toMatch(/\/l\//);
  });
});
