// Issue 20 (c): POST /api/payments/subscribe — a recurring payment linked to a submission, started in the
// account's Stripe (the local imitation) when its signer completes, retried when starting fails, and
// Stripe's invoice and subscription webhooks driving payment.* events.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { shardScope } from '../../src/db/shards';
import { MAX_START_ATTEMPTS, startDuePaymentSubscriptions } from '../../src/services/payments/recurring-payments';
import { addUser, api, shardOf } from '../helpers';
import { acceptDisclosure, page, signingFixture, type Fixture } from '../signing/fixtures';
import { outboxRows, shardNumberOf } from '../submission-fixtures';
import { deliver, SECRET, type StripeEvent } from './payment-fixtures';

let keys = 0;

type StripeRequest = { authorization: string | null; idempotencyKey: string | null; form: Record<string, string> };

/** A submission with two signers, the account's own Stripe key set (one key per fixture: outages are per key). */
async function fixture(options: { configured?: boolean } = {}) {
  const f = await signingFixture({ roles: ['Client', 'Manager'], fields: [{ name: 'Name', type: 'text' }] });
  const key = `sk_test_acctRecurring${String((keys += 1)).padStart(3, '0')}${f.account.accountId}`;
  if (options.configured !== false) {
    expect(
      (
        await api('PUT', '/api/settings/payments', {
          token: f.account.token,
          body: { stripe_secret_key: key, stripe_webhook_secret: SECRET },
        })
      ).status,
    ).toBe(200);
  }
  return { ...f, key };
}

const body = (f: Fixture, extra: Record<string, unknown> = {}) => ({
  submission_id: f.submissionId,
  price: '12.50',
  currency: 'EUR',
  interval: 'month',
  trial_days: 14,
  description: 'Support plan',
  ...extra,
});

function subscribe(f: Fixture, extra: Record<string, unknown> = {}, token = f.account.token) {
  return api('POST', '/api/payments/subscribe', { token, body: body(f, extra) });
}

/** Completes a signer on the signing page (sequential: the Client, who has the Name field, then the Manager). */
async function complete(f: Fixture, index: number) {
  const values = index === 0 ? { [f.field('Name')]: 'Signer 1' } : {};
  expect((await acceptDisclosure(f.submitters[index].slug)).status).toBe(200);
  const res = await page('POST', `/s/${f.submitters[index].slug}/submit`, { body: { values } });
  expect(res.status).toBe(200);
}

async function cron(f: Fixture, now = Date.now()) {
  return startDuePaymentSubscriptions(shardScope(env, await shardNumberOf(f.account.accountId)), now);
}

async function stripeRequests(path: string, accountId: number): Promise<StripeRequest[]> {
  const all = (await (await fetch(`${env.STRIPE_API_BASE}/__requests`)).json()) as (StripeRequest & { path: string })[];
  return all.filter((r) => r.path === path && r.form['metadata[account_id]'] === String(accountId));
}

async function stripeAction(subscriptionId: string, action: 'pay' | 'fail' | 'cancel'): Promise<StripeEvent[]> {
  return (await fetch(`${env.STRIPE_API_BASE}/__subscriptions/${subscriptionId}/${action}`, { method: 'POST' })).json();
}

const paymentEvents = (f: Fixture) => outboxRows("event LIKE 'payment.%' AND json_extract(data, '$.submission.id') = ?", f.submissionId);

async function started(f: Fixture) {
  const created = (await subscribe(f)).json;
  await complete(f, 0);
  await complete(f, 1);
  await cron(f);
  return (await api('GET', `/api/payments/subscriptions/${created.id}`, { token: f.account.token })).json;
}

describe('POST /api/payments/subscribe', () => {
  it('links a scheduled recurring payment to the submission, for its last signer by default', async () => {
    const f = await fixture();
    const res = await subscribe(f);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(Number),
      submission_id: f.submissionId,
      submitter_id: f.submitters[1].id,
      status: 'scheduled',
      price: '12.50',
      amount: 1250,
      currency: 'EUR',
      interval: 'month',
      trial_days: 14,
      description: 'Support plan',
      stripe_subscription_id: null,
      start_attempts: 0,
      last_error: null,
      next_attempt_at: null,
      started_at: null,
      canceled_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('links it to the submitter named by submitter_id', async () => {
    const f = await fixture();
    const res = await subscribe(f, { submitter_id: f.submitters[0].id });
    expect(res.json.submitter_id).toBe(f.submitters[0].id);
  });

  it('answers 401 without credentials', async () => {
    const f = await fixture();
    expect((await api('POST', '/api/payments/subscribe', { token: null, body: body(f) })).status).toBe(401);
  });

  it('answers 403 to a token without submissions:write', async () => {
    const f = await fixture();
    const reader = await addUser(f.account.accountId, 'admin', ['submissions:read']);
    const res = await subscribe(f, {}, reader.token);
    expect(res.status).toBe(403);
  });

  it('answers 404 for another account’s submission', async () => {
    const f = await fixture();
    const other = await fixture();
    const res = await subscribe(f, {}, other.account.token);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Submission not found.');
  });

  it('answers 422 with a sentence for a price the currency cannot charge', async () => {
    const f = await fixture();
    const res = await subscribe(f, { price: '12.505' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('price must be a EUR amount above 0 with at most 2 decimals, such as 12.50.');
  });

  it('answers 422 with a sentence for an unknown currency', async () => {
    const f = await fixture();
    const res = await subscribe(f, { currency: 'eur' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('currency "eur" is not an ISO 4217 currency code; use one such as USD or EUR (upper case).');
  });

  it('answers 422 naming the field for an interval Stripe does not bill', async () => {
    const f = await fixture();
    const res = await subscribe(f, { interval: 'fortnight' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toContain('interval');
    expect(JSON.stringify(res.json.error)).toContain('day, week, month, year');
  });

  it('answers 422 when the account has no Stripe keys', async () => {
    const f = await fixture({ configured: false });
    const res = await subscribe(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Payments are not set up: store the account’s Stripe keys with PUT /api/settings/payments first.');
  });

  it('answers 422 for a submitter who has already completed', async () => {
    const f = await fixture();
    await complete(f, 0);
    const res = await subscribe(f, { submitter_id: f.submitters[0].id });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`Submitter ${f.submitters[0].id} has already completed; choose a signer who has yet to complete.`);
  });

  it('answers 422 for a submitter of another submission', async () => {
    const f = await fixture();
    const res = await subscribe(f, { submitter_id: 999_999_999 });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`submitter_id 999999999 is not a submitter of submission ${f.submissionId}.`);
  });

  it('creates one recurring payment when two calls race for the same submission; the other answers 409', async () => {
    const f = await fixture();
    const [a, b] = await Promise.all([subscribe(f), subscribe(f, { price: '20.00' })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.json.error).toMatch(new RegExp(`^Submission ${f.submissionId} already has a recurring payment \\(id \\d+\\)`));
    const rows = await (await shardOf(f.account.accountId))
      .prepare('SELECT COUNT(*) AS n FROM payment_subscriptions WHERE submission_id = ?')
      .bind(f.submissionId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe('GET /api/payments/subscriptions/{id}', () => {
  it('answers 401 without credentials and 403 without submissions:read', async () => {
    const f = await fixture();
    const { id } = (await subscribe(f)).json;
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: null })).status).toBe(401);
    const writer = await addUser(f.account.accountId, 'admin', ['templates:read']);
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: writer.token })).status).toBe(403);
  });

  it('answers 404 for another account’s recurring payment', async () => {
    const f = await fixture();
    const other = await fixture();
    const { id } = (await subscribe(f)).json;
    const res = await api('GET', `/api/payments/subscriptions/${id}`, { token: other.account.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Recurring payment not found.');
  });
});

describe('starting a recurring payment', () => {
  it('is not started while its signer has yet to complete', async () => {
    const f = await fixture();
    const { id } = (await subscribe(f)).json;
    await complete(f, 0);
    await cron(f);
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json.status).toBe('scheduled');
    expect(await stripeRequests('/v1/subscriptions', f.account.accountId)).toHaveLength(0);
  });

  it('creates the Stripe subscription with the account’s key, price, interval and trial once its signer completes', async () => {
    const f = await fixture();
    const state = await started(f);
    expect(state).toMatchObject({
      status: 'trialing',
      stripe_subscription_id: expect.stringMatching(/^sub_/),
      started_at: expect.any(String),
      start_attempts: 0,
    });
    const [sent] = await stripeRequests('/v1/subscriptions', f.account.accountId);
    expect(sent.authorization).toBe(`Bearer ${f.key}`);
    expect(sent.form).toMatchObject({
      'items[0][price_data][currency]': 'eur',
      'items[0][price_data][unit_amount]': '1250',
      'items[0][price_data][recurring][interval]': 'month',
      trial_period_days: '14',
      collection_method: 'send_invoice',
      'metadata[payment_subscription_id]': String(state.id),
    });
    const [customer] = await stripeRequests('/v1/customers', f.account.accountId);
    expect(customer.form.email).toBe(f.submitters[1].email);
  });

  it('fires payment.created with the Stripe subscription when it starts', async () => {
    const f = await fixture();
    const state = await started(f);
    const events = await paymentEvents(f);
    expect(events.map((e) => e.event)).toEqual(['payment.created']);
    expect(events[0].data.payment).toEqual({
      id: state.id,
      kind: 'subscription',
      status: 'trialing',
      amount: 1250,
      currency: 'EUR',
      description: 'Support plan',
      reference: state.stripe_subscription_id,
      invoice: null,
      failure_message: null,
      field: null,
      interval: 'month',
      trial_days: 14,
    });
    expect(events[0].data.submitter).toMatchObject({ id: f.submitters[1].id });
  });

  it('starts it once however often the cron runs', async () => {
    const f = await fixture();
    await started(f);
    await cron(f);
    expect(await stripeRequests('/v1/subscriptions', f.account.accountId)).toHaveLength(1);
    expect(await paymentEvents(f)).toHaveLength(1);
  });

  it('completes the submission when Stripe is down, keeps it scheduled with the reason and retries later', async () => {
    const f = await fixture();
    const { id } = (await subscribe(f)).json;
    await fetch(`${env.STRIPE_API_BASE}/__outage`, { method: 'POST', body: JSON.stringify({ secret_key: f.key, count: 1 }) });
    await complete(f, 0);
    await complete(f, 1);
    const now = Date.now();
    await cron(f, now);
    expect((await api('GET', `/api/submissions/${f.submissionId}`, { token: f.account.token })).json.status).toBe('completed');
    const waiting = (await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json;
    expect(waiting).toMatchObject({ status: 'scheduled', start_attempts: 1, next_attempt_at: new Date(now + 60_000).toISOString() });
    expect(waiting.last_error).toContain('The payment processor refused the request (HTTP 500)');

    await cron(f, now + 30_000);
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json.status).toBe('scheduled');
    await cron(f, now + 61_000);
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json).toMatchObject({
      status: 'trialing',
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('retries a start that failed halfway with the same idempotency keys, so Stripe replays what it already created', async () => {
    const f = await fixture();
    const { id } = (await subscribe(f)).json;
    await complete(f, 0);
    await complete(f, 1);
    // The customer is created, then the product call fails.
    await fetch(`${env.STRIPE_API_BASE}/__outage`, { method: 'POST', body: JSON.stringify({ secret_key: f.key, count: 1, skip: 1 }) });
    const now = Date.now();
    await cron(f, now);
    await cron(f, now + 61_000);
    const customers = await stripeRequests('/v1/customers', f.account.accountId);
    expect(customers).toHaveLength(2);
    expect(customers[0].idempotencyKey).toBe(`payment-subscription-${f.account.accountId}-${id}-customer`);
    expect(customers[1].idempotencyKey).toBe(customers[0].idempotencyKey);
    expect(await stripeRequests('/v1/subscriptions', f.account.accountId)).toHaveLength(1);
    expect((await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json.status).toBe('trialing');
  });

  it('gives up after the last attempt: failed, with payment.failed, and the submission untouched', async () => {
    const f = await fixture();
    const { id } = (await subscribe(f)).json;
    await complete(f, 0);
    await complete(f, 1);
    await (await shardOf(f.account.accountId))
      .prepare('UPDATE payment_subscriptions SET start_attempts = ? WHERE id = ?')
      .bind(MAX_START_ATTEMPTS - 1, id)
      .run();
    await fetch(`${env.STRIPE_API_BASE}/__outage`, { method: 'POST', body: JSON.stringify({ secret_key: f.key, count: 1 }) });
    await cron(f);
    const state = (await api('GET', `/api/payments/subscriptions/${id}`, { token: f.account.token })).json;
    expect(state).toMatchObject({ status: 'failed', start_attempts: MAX_START_ATTEMPTS, next_attempt_at: null });
    const [failed] = await paymentEvents(f);
    expect(failed.event).toBe('payment.failed');
    expect(failed.data.payment.failure_message).toContain('It could not be started');
    expect((await api('GET', `/api/submissions/${f.submissionId}`, { token: f.account.token })).json.status).toBe('completed');
  });
});

describe('recurring payment webhooks', () => {
  it('fires payment.succeeded once per paid invoice and makes it active', async () => {
    const f = await fixture();
    const state = await started(f);
    const [paid] = await stripeAction(state.stripe_subscription_id, 'pay');
    expect((await deliver(f.account.accountId, paid)).json.outcome).toBe('applied');
    expect((await deliver(f.account.accountId, paid)).json.outcome).toBe('unchanged');
    const succeeded = (await paymentEvents(f)).filter((e) => e.event === 'payment.succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0].data.payment).toMatchObject({
      status: 'active',
      invoice: paid.data.object.id,
      reference: state.stripe_subscription_id,
    });
    expect((await api('GET', `/api/payments/subscriptions/${state.id}`, { token: f.account.token })).json.status).toBe('active');
  });

  it('fires payment.failed for an unpaid invoice and makes it past_due', async () => {
    const f = await fixture();
    const state = await started(f);
    const [failed] = await stripeAction(state.stripe_subscription_id, 'fail');
    expect((await deliver(f.account.accountId, failed)).json.outcome).toBe('applied');
    const events = (await paymentEvents(f)).filter((e) => e.event === 'payment.failed');
    expect(events).toHaveLength(1);
    expect(events[0].data.payment).toMatchObject({
      status: 'past_due',
      invoice: failed.data.object.id,
      failure_message: 'The invoice was not paid.',
    });
    expect((await api('GET', `/api/payments/subscriptions/${state.id}`, { token: f.account.token })).json.status).toBe('past_due');
  });

  it('fires payment.canceled once when the Stripe subscription ends, and stays canceled', async () => {
    const f = await fixture();
    const state = await started(f);
    const [deleted] = await stripeAction(state.stripe_subscription_id, 'cancel');
    expect((await deliver(f.account.accountId, deleted)).json.outcome).toBe('applied');
    expect((await deliver(f.account.accountId, deleted)).json.outcome).toBe('unchanged');
    const [late] = await stripeAction(state.stripe_subscription_id, 'fail');
    await deliver(f.account.accountId, late);
    expect((await paymentEvents(f)).filter((e) => e.event === 'payment.canceled')).toHaveLength(1);
    expect((await api('GET', `/api/payments/subscriptions/${state.id}`, { token: f.account.token })).json).toMatchObject({
      status: 'canceled',
      canceled_at: expect.any(String),
    });
  });

  it('ignores an event about another account’s recurring payment', async () => {
    const f = await fixture();
    const g = await fixture();
    const state = await started(f);
    const [paid] = await stripeAction(state.stripe_subscription_id, 'pay');
    expect((await deliver(g.account.accountId, paid)).json.outcome).toBe('ignored');
    expect((await paymentEvents(f)).filter((e) => e.event === 'payment.succeeded')).toHaveLength(0);
  });
});

describe('recurring payments elsewhere', () => {
  it('deletes a submission permanently together with its recurring payment and its invoices', async () => {
    const f = await fixture();
    const state = await started(f);
    await deliver(f.account.accountId, (await stripeAction(state.stripe_subscription_id, 'pay'))[0]);
    const res = await api('DELETE', `/api/submissions/${f.submissionId}?permanently=true`, { token: f.account.token });
    expect(res.status).toBe(204);
    const shard = await shardOf(f.account.accountId);
    expect(
      (await shard
        .prepare('SELECT COUNT(*) AS n FROM payment_subscriptions WHERE submission_id = ?')
        .bind(f.submissionId)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    expect(
      (await shard
        .prepare('SELECT COUNT(*) AS n FROM payment_subscription_invoices WHERE payment_subscription_id = ?')
        .bind(state.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it('documents the payment.* event data and the recurring payment in the OpenAPI document', async () => {
    const doc = (await api('GET', '/api/openapi.json', { token: null })).json;
    expect(Object.keys(doc.components.schemas.PaymentEventData.properties)).toEqual(['payment', 'submission', 'submitter', 'template']);
    expect(doc.paths['/payments/subscribe'].post.responses).toHaveProperty('201');
    expect(doc.paths['/payments/subscribe'].post.responses).toHaveProperty('409');
    expect(doc.paths['/payments/subscriptions/{id}'].get.responses).toHaveProperty('404');
  });
});
