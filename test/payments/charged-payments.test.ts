// Issue 28 point 1: a payment is what was charged. A payment field counts as paid only when Stripe reports
// the Checkout Session prepared for its current amount, with that amount_total and currency; an amount
// that changes after paying needs a new checkout; the events carry what Stripe charged. Point 9: the
// payments webhook wakes the webhook fan-out, so payment.succeeded reaches a real receiver at once.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import type { WebhookMessage } from '../../src/env';
import { shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { outboxRows } from '../submission-fixtures';
import { acceptDisclosure, page, submitterRow, type Fixture } from '../signing/fixtures';
import { receivedBy } from '../webhook-receiver';
import { deliverPending, receiverHook, runQueue } from '../webhook-fixtures';
import { KEY, checkout, deliver, payingFixture, settle, signedDelivery, stripeRequests, type StripeEvent } from './payment-fixtures';

const HOURLY = { formula: '{Hours} * 80', preferences: { currency: 'USD', description: 'Hours worked' } };

async function setHours(f: Fixture, hours: number) {
  expect((await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Hours')]: hours } } })).status).toBe(200);
}

async function submit(f: Fixture, values: Record<string, unknown> = {}) {
  await acceptDisclosure(f.submitters[0].slug);
  return page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann', ...values } } });
}

async function paymentRow(f: Fixture) {
  return (await shardOf(f.account.accountId))
    .prepare('SELECT status, amount, currency, reference FROM payments WHERE submitter_id = ?')
    .bind(f.submitters[0].id)
    .first<{ status: string; amount: number; currency: string; reference: string | null }>();
}

const completedOf = (events: StripeEvent[]) => events.find((e) => e.type === 'checkout.session.completed')!;
const intentOf = (events: StripeEvent[]) => String(completedOf(events).data.object.payment_intent);

/** Stripe's event with its object changed, under a new event id. */
function altered(event: StripeEvent, change: Record<string, unknown>, suffix: string): StripeEvent {
  return { ...event, id: `${event.id}_${suffix}`, data: { object: { ...event.data.object, ...change } } };
}

describe('a payment counts only for the current checkout and what Stripe charged', () => {
  it('does not count an older, cheaper checkout paid before a new one was started', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    const cheap = await settle((await checkout(f)).json.url, 'pay');
    // Stripe's events for the cheap session arrive only after the signer changed the hours and started again.
    await setHours(f, 10);
    expect((await checkout(f)).status).toBe(200);

    const outcomes = [];
    for (const event of cheap.events) outcomes.push((await deliver(f.account.accountId, event)).json.outcome);

    expect(outcomes).toContain('not_counted');
    expect(outcomes).not.toContain('applied');
    expect(await paymentRow(f)).toMatchObject({ status: 'pending', amount: 80000, reference: null });
    const res = await submit(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Pay "Deposit" (800.00 USD) before completing the form.');
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('expires the older checkout at Stripe when a new one starts, so it can no longer be paid', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    const cheap = (await checkout(f)).json.url as string;
    await setHours(f, 10);
    expect((await checkout(f)).status).toBe(200);
    const cheapId = cheap.split('/').pop()!;

    expect(
      (await stripeRequests()).some((r) => r.path === `/v1/checkout/sessions/${cheapId}/expire` && r.authorization === `Bearer ${KEY}`),
    ).toBe(true);
    expect((await fetch(`${cheap}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(410);
    // Stripe's checkout.session.expired for it changes nothing: the current checkout stays pending.
    const [expired] = (await (await fetch(`${env.STRIPE_API_BASE}/__events/${cheapId}`)).json()) as StripeEvent[];
    expect(expired.type).toBe('checkout.session.expired');
    expect((await deliver(f.account.accountId, expired)).json.outcome).toBe('unchanged');
    expect(await paymentRow(f)).toMatchObject({ status: 'pending', amount: 80000 });
    expect(await outboxRows("event = 'payment.canceled' AND json_extract(data, '$.submission.id') = ?", f.submissionId)).toEqual([]);
  });

  it('does not count a session whose amount_total differs from the amount prepared for it', async () => {
    const f = await payingFixture();
    const { events } = await settle((await checkout(f)).json.url, 'pay');
    const less = altered(completedOf(events), { amount_total: 100 }, 'less');

    expect((await deliver(f.account.accountId, less)).json.outcome).toBe('not_counted');
    expect((await paymentRow(f))!.status).toBe('pending');
    expect((await submit(f)).status).toBe(422);
    // The session as Stripe charged it still counts.
    expect((await deliver(f.account.accountId, completedOf(events))).json.outcome).toBe('applied');
  });

  it('does not count a session charged in another currency', async () => {
    const f = await payingFixture();
    const { events } = await settle((await checkout(f)).json.url, 'pay');
    const dollars = altered(completedOf(events), { currency: 'usd' }, 'usd');

    expect((await deliver(f.account.accountId, dollars)).json.outcome).toBe('not_counted');
    expect((await paymentRow(f))!.status).toBe('pending');
    expect((await submit(f)).status).toBe(422);
  });

  it('refuses to complete when the formula’s inputs changed after paying', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    for (const event of (await settle((await checkout(f)).json.url, 'pay')).events) await deliver(f.account.accountId, event);
    expect((await paymentRow(f))!.status).toBe('paid');

    const res = await submit(f, { [f.field('Hours')]: 10 });

    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      '"Deposit" was paid with 80.00 USD, but it now comes to 800.00 USD: pay the new amount before completing the form.',
    );
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('shows the signer the paid field as changed, with the new amount to pay', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    for (const event of (await settle((await checkout(f)).json.url, 'pay')).events) await deliver(f.account.accountId, event);
    await setHours(f, 10);

    const shown = await page('GET', `/s/${f.submitters[0].slug}`);

    expect(shown.status).toBe(200);
    expect(shown.text).toContain(
      '"status":"changed","amount":"800.00 USD","failure":"This was paid with 80.00 USD, but it now comes to 800.00 USD."',
    );
  });

  it('takes a new checkout for the changed amount, and then completes with that payment', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    for (const event of (await settle((await checkout(f)).json.url, 'pay')).events) await deliver(f.account.accountId, event);
    await setHours(f, 10);

    const again = await checkout(f);
    expect(again.status).toBe(200);
    const sent = (await stripeRequests()).filter((r) => r.form['metadata[account_id]'] === String(f.account.accountId)).at(-1)!;
    expect(sent.form['line_items[0][price_data][unit_amount]']).toBe('80000');
    const { events } = await settle(again.json.url, 'pay');
    for (const event of events) await deliver(f.account.accountId, event);

    expect((await submit(f)).status).toBe(200);
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[f.field('Deposit')]).toBe(intentOf(events));
  });

  it('still refuses a second checkout while the paid amount is the amount due', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    for (const event of (await settle((await checkout(f)).json.url, 'pay')).events) await deliver(f.account.accountId, event);
    const res = await checkout(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('"Deposit" is already paid.');
  });
});

describe('payment.succeeded shows what Stripe charged', () => {
  it('fires once, for the current session, with its amount and payment intent', async () => {
    const f = await payingFixture(HOURLY);
    await setHours(f, 1);
    const older = await settle((await checkout(f)).json.url, 'pay');
    await setHours(f, 2);
    const current = (await checkout(f)).json.url;
    for (const event of older.events) await deliver(f.account.accountId, event);
    const paid = await settle(current, 'pay');
    for (const event of paid.events) await deliver(f.account.accountId, event);

    const succeeded = (await outboxRows("event = 'payment.succeeded' AND json_extract(data, '$.submission.id') = ?", f.submissionId)).map(
      (e) => e.data.payment,
    );
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]).toMatchObject({
      status: 'paid',
      amount: Number(completedOf(paid.events).data.object.amount_total),
      currency: 'USD',
      reference: intentOf(paid.events),
    });
    expect(succeeded[0].amount).toBe(16000);
  });
});

describe('the payments webhook wakes the webhook fan-out', () => {
  /** One Stripe delivery through the whole app (real D1), with a webhooks queue that records what it is sent. */
  async function deliverRecording(accountId: number, event: StripeEvent): Promise<{ status: number; sent: WebhookMessage[] }> {
    const sent: WebhookMessage[] = [];
    const queue = {
      send: async (body: WebhookMessage) => void sent.push(body),
      sendBatch: async (messages: { body: WebhookMessage }[]) => void sent.push(...messages.map((m) => m.body)),
    };
    const ctx = createExecutionContext();
    const res = await createApp().request(
      `/api/payments/webhook/${accountId}`,
      { method: 'POST', ...(await signedDelivery(event)) },
      { ...env, WEBHOOK_QUEUE: queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return { status: res.status, sent };
  }

  it('delivers payment.succeeded to a real receiver through the drain it sends, without the cron', async () => {
    const f = await payingFixture();
    const { hook, receiver } = await receiverHook(f.account.token, { events: ['payment.succeeded'] });
    const { events } = await settle((await checkout(f)).json.url, 'pay');

    const sent: WebhookMessage[] = [];
    for (const event of events) {
      const delivered = await deliverRecording(f.account.accountId, event);
      expect(delivered.status).toBe(200);
      sent.push(...delivered.sent);
    }
    // One wake-up, stamped with the account's shard, for the delivery that wrote payment.succeeded.
    expect(sent).toEqual([{ kind: 'drain', shard: await shardNumberOf(f.account.accountId) }]);

    await runQueue(sent);
    await deliverPending(hook.id);
    const received = (await receivedBy(receiver)).map((d) => ({
      event: JSON.parse(d.body).event,
      reference: JSON.parse(d.body).data.payment.reference,
      signed: d.signatureValid,
    }));
    expect(received).toEqual([{ event: 'payment.succeeded', reference: intentOf(events), signed: true }]);
  });

  it('sends no wake-up for an event that changed nothing', async () => {
    const f = await payingFixture();
    await receiverHook(f.account.token, { events: ['payment.succeeded'] });
    const { events } = await settle((await checkout(f)).json.url, 'pay');
    for (const event of events) await deliver(f.account.accountId, event);
    expect((await deliverRecording(f.account.accountId, { ...completedOf(events), id: `${completedOf(events).id}_again` })).sent).toEqual(
      [],
    );
  });
});
