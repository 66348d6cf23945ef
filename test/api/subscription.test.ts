import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { addUser, api, createAccount } from '../helpers';

type Received = { path: string; authorization: string | null; contentType: string | null; form: Record<string, string> };

/** What the Stripe imitation has been sent so far (test/global-setup/stripe-imitation.mjs). */
async function stripeRequests(): Promise<Received[]> {
  return (await fetch(`${env.STRIPE_API_BASE}/__requests`)).json();
}

/** A request through the Worker with some bindings replaced, e.g. checkout without credentials. */
async function withEnv(overrides: Partial<Cloudflare.Env>, token: string, body: unknown) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request('https://api.test/api/subscription/checkout', {
      method: 'POST',
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { ...env, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: response.status, json: (await response.json()) as { error: string } };
}

describe('POST /api/subscription/checkout', () => {
  it('returns the payment processor’s checkout URL', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1, interval: 'monthly' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/) });
  });

  it('asks Stripe for a subscription session for the chosen plan, interval and account', async () => {
    const a = await createAccount({ plan: 'free' });
    await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 2, interval: 'yearly' } });
    const sent = (await stripeRequests())
      .filter((r) => r.form.mode === 'subscription' && r.form.client_reference_id === String(a.accountId))
      .at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.authorization).toBe('Bearer sk_test_imitation');
    expect(sent.contentType).toBe('application/x-www-form-urlencoded');
    expect(sent.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '100000',
      'line_items[0][price_data][recurring][interval]': 'year',
      'metadata[plan]': 'enterprise',
      'metadata[account_id]': String(a.accountId),
      success_url: 'https://api.test/settings/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    });
  });

  it('defaults the interval to monthly', async () => {
    const a = await createAccount({ plan: 'free' });
    await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1 } });
    const sent = (await stripeRequests())
      .filter((r) => r.form.mode === 'subscription' && r.form.client_reference_id === String(a.accountId))
      .at(-1)!;
    expect(sent.form['line_items[0][price_data][recurring][interval]']).toBe('month');
  });

  it('answers 422 saying checkout is not configured when there are no credentials', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await withEnv({ STRIPE_SECRET_KEY: undefined }, a.token, { plan_id: 1, interval: 'monthly' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Checkout is not configured on this server: no payment-processor credentials are set.');
  });

  it('answers 502 when the payment processor refuses, without its internals', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await withEnv({ STRIPE_SECRET_KEY: 'sk_test_revoked' }, a.token, { plan_id: 1, interval: 'monthly' });
    expect(res.status).toBe(502);
    expect(res.json.error).toBe('The payment processor refused to start checkout (HTTP 401); try again later or contact support.');
  });

  it('answers 502 when the payment processor cannot be reached', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await withEnv({ STRIPE_API_BASE: 'http://127.0.0.1:1' }, a.token, { plan_id: 1, interval: 'monthly' });
    expect(res.status).toBe(502);
    expect(res.json.error).toBe('The payment processor could not be reached; try again shortly.');
  });

  it('answers 422 naming the plans for an unknown plan_id', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 7, interval: 'monthly' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('plan_id must be one of 1 (pro), 2 (enterprise).');
  });

  it('answers 422 for an unknown interval', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1, interval: 'weekly' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('interval must be one of: monthly, yearly.');
  });

  it('answers 400 when plan_id is missing', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { interval: 'monthly' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('plan_id is required.');
  });

  it('answers 422 when the account is already on the plan', async () => {
    const a = await createAccount({ plan: 'pro' });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1 } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The account is already on the pro plan.');
  });

  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/subscription/checkout', { body: { plan_id: 1 } })).status).toBe(401);
  });

  it('answers 403 to a token without account:write', async () => {
    const a = await createAccount({ plan: 'free', scopes: ['account:read'] });
    const res = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1 } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 403 to a user who is not an admin', async () => {
    const a = await createAccount({ plan: 'free' });
    const editor = await addUser(a.accountId, 'editor');
    const res = await api('POST', '/api/subscription/checkout', { token: editor.token, body: { plan_id: 1 } });
    expect(res.status).toBe(403);
  });

  it('replays one checkout session for a retried Idempotency-Key', async () => {
    const a = await createAccount({ plan: 'free' });
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1 }, headers });
    const second = await api('POST', '/api/subscription/checkout', { token: a.token, body: { plan_id: 1 }, headers });
    expect(second.json.url).toBe(first.json.url);
    expect((await stripeRequests()).filter((r) => r.form.client_reference_id === String(a.accountId))).toHaveLength(1);
  });
});
