// Issue 7 point 5: every event name fires at its moment from the capabilities that cause it, and
// reaches a subscribed endpoint (a real local receiver) signed, in the spec's payload shapes.
import { createExecutionContext, createMessageBatch, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { EVENT_NAMES } from '../../src/lib/events';
import type { SealingQueueBody } from '../../src/env';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { page, messagesTo, acceptDisclosure } from '../signing/fixtures';
import { receivedBy } from '../webhook-receiver';
import { deliverPending, receiverHook, runQueue } from '../webhook-fixtures';
import { createTemplate, shardNumberOf } from '../submission-fixtures';
import { deliver, SECRET, type StripeEvent } from '../payments/payment-fixtures';

let owner: TestAccount;
let hookId: number;
let receiver: string;

async function deliverAll() {
  await runQueue([{ kind: 'drain', shard: await shardNumberOf(owner.accountId) }]);
  await deliverPending(hookId);
}

async function seal(submissionId: number) {
  const shard = await shardNumberOf(owner.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `s${submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

function cookieOf(res: { headers: Headers }): string {
  return res.headers.get('Set-Cookie')!.split(';')[0];
}

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  const hook = await receiverHook(owner.token);
  hookId = hook.hook.id;
  receiver = hook.receiver;
});

describe('events from submissions and signing reach webhooks', () => {
  it('delivers all 26 event names, each signed, with the spec’s shapes', async () => {
    // template.created / updated / archived
    const t = await createTemplate(owner.token);
    await api('PUT', `/api/templates/${t.id}`, { token: owner.token, body: { preferences: { require_email_2fa: true } } });
    const spare = await createTemplate(owner.token);
    await api('DELETE', `/api/templates/${spare.id}`, { token: owner.token });

    // A submission signed on the page with an email code: created, sent, viewed, started, field.updated,
    // completed, signing.complete, submission.completed, document.generated.
    const s = (
      await api('POST', '/api/submissions', {
        token: owner.token,
        body: { template_id: t.id, submitters: [{ email: 'events-signer@example.com', name: 'Eve Signer' }] },
      })
    ).json;
    const slug = s.submitters[0].slug;
    // A recurring payment its signer's completion starts (payment.created by the cron below), then paid,
    // failed and canceled through Stripe's webhooks.
    expect(
      (
        await api('PUT', '/api/settings/payments', {
          token: owner.token,
          body: { stripe_secret_key: 'sk_test_acctEventsDelivery1', stripe_webhook_secret: SECRET },
        })
      ).status,
    ).toBe(200);
    const recurring = await api('POST', '/api/payments/subscribe', {
      token: owner.token,
      body: { submission_id: s.id, price: 9, currency: 'USD', interval: 'month' },
    });
    expect(recurring.status).toBe(201);
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const code = /\b(\d{6})\b/.exec((await messagesTo('events-signer@example.com', 'verification_code')).at(-1)!.text)![1];
    const cookie = cookieOf(await page('POST', `/s/${slug}/verification/check`, { body: { code } }));
    expect((await api('GET', `/s/${slug}`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await page('POST', `/s/${slug}/open`, { body: {}, headers: { Cookie: cookie } })).status).toBe(200);
    const nameField = t.fields.find((f) => f.name === 'First Party Name')!.uuid;
    const signatureField = t.fields.find((f) => f.name === 'First Party Signature')!.uuid;
    const dateField = t.fields.find((f) => f.name === 'First Party Date')!.uuid;
    expect(
      (await page('PUT', `/s/${slug}/values`, { body: { values: { [nameField]: 'Eve Signer' } }, headers: { Cookie: cookie } })).status,
    ).toBe(200);
    await acceptDisclosure(slug, { Cookie: cookie });
    const submitted = await page('POST', `/s/${slug}/submit`, {
      body: { values: { [signatureField]: 'Eve Signer', [dateField]: '2026-11-23' } },
      headers: { Cookie: cookie },
    });
    expect(submitted.status).toBe(200);
    await seal(s.id);

    // Declined, delegated, expired and archived submissions of a plain template.
    const plain = await createTemplate(owner.token, ['Client', 'Manager']);
    const make = async (extra: Record<string, unknown> = {}) =>
      (
        await api('POST', '/api/submissions', {
          token: owner.token,
          body: {
            template_id: plain.id,
            submitters_order: 'parallel',
            submitters: [
              { role: 'Client', email: `c${crypto.randomUUID().slice(0, 6)}@example.com` },
              { role: 'Manager', email: `m${crypto.randomUUID().slice(0, 6)}@example.com` },
            ],
            ...extra,
          },
        })
      ).json;
    const declined = await make();
    expect((await page('POST', `/s/${declined.submitters[0].slug}/decline`, { body: { reason: 'Wrong amount' } })).status).toBe(200);
    const delegated = await make();
    expect(
      (await page('POST', `/s/${delegated.submitters[1].slug}/delegate`, { body: { email: 'deputy@example.com', name: 'Deputy' } })).status,
    ).toBe(200);
    const expiring = await make({ expire_at: new Date(Date.now() + 60_000).toISOString() });
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), expiring.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    await api('DELETE', `/api/submissions/${(await make()).id}`, { token: owner.token });
    const stripeSubscription = (await api('GET', `/api/payments/subscriptions/${recurring.json.id}`, { token: owner.token })).json
      .stripe_subscription_id;
    for (const action of ['pay', 'fail', 'cancel']) {
      const [event] = (await (
        await fetch(`${env.STRIPE_API_BASE}/__subscriptions/${stripeSubscription}/${action}`, { method: 'POST' })
      ).json()) as StripeEvent[];
      expect((await deliver(owner.accountId, event)).json.outcome).toBe('applied');
    }

    await deliverAll();
    const delivered = await receivedBy(receiver);
    expect(delivered.every((d) => d.signatureValid)).toBe(true);
    const bodies = delivered.map((d) => JSON.parse(d.body) as { event: string; timestamp: string; data: Record<string, any> });
    const names = new Set(bodies.map((b) => b.event));
    expect([...EVENT_NAMES].filter((e) => !names.has(e))).toEqual([]);

    const one = (event: string, where: (b: { data: Record<string, any> }) => boolean = () => true) =>
      bodies.find((b) => b.event === event && where(b))!;
    const mine = (b: { data: Record<string, any> }) => b.data.submission?.id === s.id;
    expect(one('form.viewed', mine).data.submitter).toMatchObject({ email: 'events-signer@example.com', status: 'opened' });
    expect(one('field.updated', mine).data).toMatchObject({
      event: 'field.updated',
      field: { uuid: nameField, name: 'First Party Name', old_value: null, new_value: 'Eve Signer', was_prefilled: false },
    });
    expect(one('signing.complete', mine).data.identity).toMatchObject({ method: 'email_2fa', provider: 'email', level: 'ses' });
    const completed = one('submission.completed', mine).data.submission;
    expect(completed).toMatchObject({ id: s.id, status: 'completed', template_id: t.id });
    expect(completed.documents[0].download_url).toContain(`/api/submissions/${s.id}/documents/`);
    expect(one('document.generated', mine).data.document).toMatchObject({ document_type: 'signed_pdf' });
    expect(one('form.declined', (b) => b.data.submission.id === declined.id).data.submitter).toMatchObject({
      status: 'declined',
      completed_at: null,
    });
    expect(one('form.delegated', (b) => b.data.submission.id === delegated.id).data.delegated_to).toEqual({
      email: 'deputy@example.com',
      name: 'Deputy',
    });
    expect(one('submission.expired', (b) => b.data.submission.id === expiring.id).data.submission.status).toBe('expired');
    expect(one('template.archived').data.template.id).toBe(spare.id);
    expect(one('payment.created', mine).data.payment).toMatchObject({
      kind: 'subscription',
      amount: 900,
      currency: 'USD',
      reference: stripeSubscription,
    });
    expect(one('payment.succeeded', mine).data.payment.status).toBe('active');
    expect(one('payment.failed', mine).data.payment.status).toBe('past_due');
    expect(one('payment.canceled', mine).data.payment.status).toBe('canceled');
    // Exactly once each per endpoint (no duplicates outside retries).
    const ids = delivered.map((d) => d.headers['x-webhook-delivery-id']);
    expect(new Set(ids).size).toBe(ids.length);
  }, 20_000);
});
