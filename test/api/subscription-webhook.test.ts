// POST /api/subscription/webhook: Stripe-signed deliveries that apply and end paid plans.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { PLANS } from '../../src/lib/plans';
import { checkoutSessionForm } from '../../src/services/billing/stripe-checkout';
import { api, createAccount, shardOf } from '../helpers';

const SECRET = 'whsec_test_signing_secret';
let eventCounter = 0;

/** Signs as Stripe does, written out here rather than reusing the service's own signer. */
async function sign(body: string, options: { secret?: string; at?: number } = {}): Promise<string> {
  const t = options.at ?? Math.floor(Date.now() / 1000);
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret ?? SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${t}.${body}`)));
  return `t=${t},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${++eventCounter}_${Date.now()}`) {
  return { id, object: 'event', type, api_version: '2024-06-20', created: Math.floor(Date.now() / 1000), data: { object } };
}

/** The same event as Stripe created it `seconds` earlier (deliveries can arrive in any order). */
function createdAgo<T extends { created: number }>(event: T, seconds: number): T {
  return { ...event, created: event.created - seconds };
}

function completedCheckout(accountId: number, plan: string, subscription = `sub_${accountId}_${plan}`) {
  return stripeEvent('checkout.session.completed', {
    id: `cs_test_${accountId}`,
    object: 'checkout.session',
    client_reference_id: String(accountId),
    metadata: { account_id: String(accountId), plan },
    customer: `cus_${accountId}`,
    subscription,
    payment_status: 'paid',
  });
}

function deletedSubscription(accountId: number, subscription: string) {
  return stripeEvent('customer.subscription.deleted', {
    id: subscription,
    object: 'subscription',
    metadata: { account_id: String(accountId), plan: 'pro' },
  });
}

async function deliver(event: unknown, options: { signature?: string | null; path?: string; rawBody?: string } = {}) {
  const body = options.rawBody ?? JSON.stringify(event);
  const signature = options.signature === undefined ? await sign(body) : options.signature;
  return api('POST', options.path ?? '/api/subscription/webhook', {
    body,
    headers: signature === null ? {} : { 'Stripe-Signature': signature },
  });
}

async function accountRow(id: number) {
  return env.CONTROL_DB.prepare('SELECT plan, stripe_subscription_id, stripe_customer_id FROM accounts WHERE id = ?').bind(id).first<{
    plan: string;
    stripe_subscription_id: string | null;
    stripe_customer_id: string | null;
  }>();
}

describe('POST /api/subscription/webhook', () => {
  it('applies the paid plan from a completed checkout session', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await deliver(completedCheckout(a.accountId, 'pro', 'sub_applies'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: 'applied' });
    expect(await accountRow(a.accountId)).toEqual({
      plan: 'pro',
      stripe_subscription_id: 'sub_applies',
      stripe_customer_id: `cus_${a.accountId}`,
    });
  });

  it('applies the plan named in the metadata the checkout route sends to Stripe', async () => {
    const a = await createAccount({ plan: 'free' });
    // The form POST /api/subscription/checkout sends; Stripe copies these fields into the session.
    const form = checkoutSessionForm({
      plan: PLANS.enterprise,
      interval: 'yearly',
      accountId: a.accountId,
      customerEmail: 'a@example.com',
      successUrl: 'https://x.test/ok',
      cancelUrl: 'https://x.test/no',
    });
    const session = {
      client_reference_id: form.get('client_reference_id'),
      metadata: { account_id: form.get('metadata[account_id]'), plan: form.get('metadata[plan]') },
    };
    const res = await deliver(stripeEvent('checkout.session.completed', { ...session, subscription: 'sub_e2e', payment_status: 'paid' }));
    expect(res.json.outcome).toBe('applied');
    expect((await accountRow(a.accountId))!.plan).toBe('enterprise');
  });

  it('records the plan change in the account’s audit trail with actor stripe', async () => {
    const a = await createAccount({ plan: 'free' });
    await deliver(completedCheckout(a.accountId, 'pro'));
    const res = await api('GET', '/api/audit_events?action=subscription.plan_changed', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      expect.objectContaining({
        action: 'subscription.plan_changed',
        actor: 'stripe',
        resource_type: 'account',
        resource_id: String(a.accountId),
        user_id: null,
        status: 200,
      }),
    ]);
  });

  it('returns the account to free when its subscription is deleted', async () => {
    const a = await createAccount({ plan: 'free' });
    await deliver(completedCheckout(a.accountId, 'pro', 'sub_ends'));
    const res = await deliver(deletedSubscription(a.accountId, 'sub_ends'));
    expect(res.json).toEqual({ received: true, outcome: 'applied' });
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'free', stripe_subscription_id: null });
  });

  it('keeps the plan when a subscription other than the paying one is deleted', async () => {
    const a = await createAccount({ plan: 'free' });
    await deliver(completedCheckout(a.accountId, 'pro', 'sub_old'));
    await deliver(completedCheckout(a.accountId, 'enterprise', 'sub_new'));
    const res = await deliver(deletedSubscription(a.accountId, 'sub_old'));
    expect(res.json.outcome).toBe('unchanged');
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'enterprise', stripe_subscription_id: 'sub_new' });
  });

  it('keeps the newer plan when an older checkout is delivered after it', async () => {
    const a = await createAccount({ plan: 'free' });
    await deliver(completedCheckout(a.accountId, 'enterprise', 'sub_newer'));
    const res = await deliver(createdAgo(completedCheckout(a.accountId, 'pro', 'sub_older'), 120));
    expect(res.json).toEqual({ received: true, outcome: 'unchanged' });
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'enterprise', stripe_subscription_id: 'sub_newer' });
  });

  it('does not return to free for a cancellation older than the plan’s last change', async () => {
    const a = await createAccount({ plan: 'free' });
    await deliver(completedCheckout(a.accountId, 'pro', 'sub_kept'));
    await deliver(completedCheckout(a.accountId, 'enterprise', 'sub_kept'));
    const res = await deliver(createdAgo(deletedSubscription(a.accountId, 'sub_kept'), 120));
    expect(res.json.outcome).toBe('unchanged');
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'enterprise', stripe_subscription_id: 'sub_kept' });
  });

  it('does not apply a checkout whose subscription’s deletion was delivered first', async () => {
    const a = await createAccount({ plan: 'free' });
    const deleted = await deliver(deletedSubscription(a.accountId, 'sub_gone'));
    expect(deleted.json.outcome).toBe('unchanged');
    const res = await deliver(createdAgo(completedCheckout(a.accountId, 'pro', 'sub_gone'), 60));
    expect(res.json.outcome).toBe('unchanged');
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'free', stripe_subscription_id: null });
  });

  it('ends on the newer plan when an older and a newer checkout arrive at once', async () => {
    const a = await createAccount({ plan: 'free' });
    const newer = completedCheckout(a.accountId, 'enterprise', 'sub_race_new');
    const older = createdAgo(completedCheckout(a.accountId, 'pro', 'sub_race_old'), 60);
    await Promise.all([deliver(older), deliver(newer)]);
    expect(await accountRow(a.accountId)).toMatchObject({ plan: 'enterprise', stripe_subscription_id: 'sub_race_new' });
  });

  it('applies a redelivered event only once', async () => {
    const a = await createAccount({ plan: 'free' });
    const upgrade = completedCheckout(a.accountId, 'pro', 'sub_once');
    await deliver(upgrade);
    await deliver(deletedSubscription(a.accountId, 'sub_once'));
    const again = await deliver(upgrade);
    expect(again.json).toEqual({ received: true, outcome: 'duplicate' });
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('applies one event exactly once when 5 deliveries of it arrive at once', async () => {
    const a = await createAccount({ plan: 'free' });
    const event = completedCheckout(a.accountId, 'pro');
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.json.outcome === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r.json.outcome === 'duplicate')).toHaveLength(4);
    const audit = await (await shardOf(a.accountId))
      .prepare("SELECT count(*) AS n FROM audit_events WHERE account_id = ? AND actor = 'stripe'")
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(audit!.n).toBe(1);
  });

  it('acknowledges other event types without changing anything', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await deliver(stripeEvent('invoice.paid', { id: 'in_1', metadata: { account_id: String(a.accountId), plan: 'pro' } }));
    expect(res.json).toEqual({ received: true, outcome: 'ignored' });
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('waits for payment when a completed session is still unpaid', async () => {
    const a = await createAccount({ plan: 'free' });
    const event = completedCheckout(a.accountId, 'pro');
    (event.data.object as Record<string, unknown>).payment_status = 'unpaid';
    expect((await deliver(event)).json.outcome).toBe('ignored');
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('is served under /api/v1 too and needs no API token', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await deliver(completedCheckout(a.accountId, 'pro'), { path: '/api/v1/subscription/webhook' });
    expect(res.status).toBe(200);
    expect((await accountRow(a.accountId))!.plan).toBe('pro');
  });

  it('accepts a delivery when any of several v1 signatures matches (secret rotation)', async () => {
    const a = await createAccount({ plan: 'free' });
    const body = JSON.stringify(completedCheckout(a.accountId, 'pro'));
    const t = Math.floor(Date.now() / 1000);
    const other = (await sign(body, { secret: 'whsec_previous', at: t })).split(',')[1];
    const res = await deliver(null, { rawBody: body, signature: `t=${t},${other},${(await sign(body, { at: t })).split(',')[1]}` });
    expect(res.json.outcome).toBe('applied');
  });

  it('refuses a delivery without a Stripe-Signature header with 400', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await deliver(completedCheckout(a.accountId, 'pro'), { signature: null });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The Stripe-Signature header is missing.');
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('refuses a signature made with another secret with 400', async () => {
    const a = await createAccount({ plan: 'free' });
    const body = JSON.stringify(completedCheckout(a.accountId, 'pro'));
    const res = await deliver(null, { rawBody: body, signature: await sign(body, { secret: 'whsec_attacker' }) });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('No v1 signature in the Stripe-Signature header matches this body.');
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('refuses a body changed after signing with 400', async () => {
    const a = await createAccount({ plan: 'free' });
    const signed = JSON.stringify(completedCheckout(a.accountId, 'pro'));
    const res = await deliver(null, { rawBody: signed.replace('"pro"', '"enterprise"'), signature: await sign(signed) });
    expect(res.status).toBe(400);
    expect((await accountRow(a.accountId))!.plan).toBe('free');
  });

  it('refuses a signature older than 5 minutes with 400', async () => {
    const a = await createAccount({ plan: 'free' });
    const body = JSON.stringify(completedCheckout(a.accountId, 'pro'));
    const res = await deliver(null, { rawBody: body, signature: await sign(body, { at: Math.floor(Date.now() / 1000) - 301 }) });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/more than 300 seconds from now/);
  });

  it('refuses a malformed Stripe-Signature header with 400', async () => {
    const res = await deliver({}, { signature: 'v1=abc' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The Stripe-Signature header must carry t=<timestamp> and at least one v1=<signature>.');
  });

  it('refuses a signed body that is not JSON with 400', async () => {
    const res = await deliver(null, { rawBody: 'not json' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The body is not valid JSON.');
  });

  it('refuses a signed body that is not a Stripe event with 400', async () => {
    const res = await deliver({ hello: 'world' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The body is not a Stripe event: it needs id, type and data.object.');
  });

  it('answers 422 when no webhook secret is configured', async () => {
    const body = JSON.stringify(stripeEvent('invoice.paid', {}));
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request('https://api.test/api/subscription/webhook', {
        method: 'POST',
        headers: { 'Stripe-Signature': await sign(body), 'Content-Type': 'application/json' },
        body,
      }),
      { ...env, STRIPE_WEBHOOK_SECRET: undefined },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toBe(
      'Stripe webhooks are not configured on this server: STRIPE_WEBHOOK_SECRET is not set.',
    );
  });

  it('is described in the OpenAPI document without API-token security', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    const operation = doc.paths['/subscription/webhook'].post;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '413', '422']);
  });
});
