import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { stripeSignature } from '../../src/services/billing/stripe-signature';
import { addUser, api, createAccount } from '../helpers';

const KEY = 'sk_test_accountOwnKey1234';
const WEBHOOK_SECRET = 'whsec_accountOwnSecret99';

async function configured() {
  const a = await createAccount();
  const res = await api('PUT', '/api/settings/payments', {
    token: a.token,
    body: { stripe_secret_key: KEY, stripe_webhook_secret: WEBHOOK_SECRET },
  });
  expect(res.status).toBe(200);
  return a;
}

async function deliver(accountId: number | string, event: unknown, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  return api('POST', `/api/payments/webhook/${accountId}`, {
    token: null,
    body,
    headers: { 'Stripe-Signature': `t=${t},v1=${await stripeSignature(secret, t, body)}` },
  });
}

const event = { id: 'evt_test_1', type: 'payment_intent.succeeded', created: 1764057600, data: { object: { id: 'pi_1' } } };

describe('payment settings', () => {
  it('shows an unconfigured account as not configured', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/settings/payments', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.payments).toEqual({
      configured: false,
      stripe_key_last4: null,
      webhook_url: `https://api.test/api/payments/webhook/${a.accountId}`,
    });
  });

  it('stores the credentials and shows only the key’s last 4', async () => {
    const a = await configured();
    const res = await api('GET', '/api/settings/payments', { token: a.token });
    expect(res.json.payments).toMatchObject({ configured: true, stripe_key_last4: '1234' });
    expect(res.text).not.toContain(KEY);
    expect(res.text).not.toContain(WEBHOOK_SECRET);
  });

  it('stores the secrets encrypted, not as given', async () => {
    const a = await configured();
    const row = await env.CONTROL_DB.prepare(
      'SELECT payments_stripe_secret_key AS k, payments_stripe_webhook_secret AS w FROM accounts WHERE id = ?',
    )
      .bind(a.accountId)
      .first<{ k: string; w: string }>();
    expect(row!.k).toMatch(/^v1\./);
    expect(row!.w).toMatch(/^v1\./);
    expect(row!.k).not.toContain(KEY);
    expect(row!.w).not.toContain(WEBHOOK_SECRET);
  });

  it('forgets the credentials on delete', async () => {
    const a = await configured();
    const res = await api('DELETE', '/api/settings/payments', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.payments).toMatchObject({ configured: false, stripe_key_last4: null });
  });

  it('refuses a value that is not a Stripe secret key with a sentence', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/payments', {
      token: a.token,
      body: { stripe_secret_key: 'pk_test_publishable123', stripe_webhook_secret: WEBHOOK_SECRET },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toContain('stripe_secret_key must be a Stripe secret or restricted key');
  });

  it('refuses a request without a token', async () => {
    const res = await api('GET', '/api/settings/payments', { token: null });
    expect(res.status).toBe(401);
  });

  it('refuses a token without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    const res = await api('PUT', '/api/settings/payments', {
      token: a.token,
      body: { stripe_secret_key: KEY, stripe_webhook_secret: WEBHOOK_SECRET },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a user who is not an admin', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'member');
    const res = await api('PUT', '/api/settings/payments', {
      token: member.token,
      body: { stripe_secret_key: KEY, stripe_webhook_secret: WEBHOOK_SECRET },
    });
    expect(res.status).toBe(403);
  });
});

describe('POST /api/payments/webhook/{account_id}', () => {
  it('accepts a delivery signed with the account’s own webhook secret', async () => {
    const a = await configured();
    const res = await deliver(a.accountId, event);
    expect(res.status).toBe(200);
    expect(res.json.received).toBe(true);
  });

  it('refuses a delivery signed with another secret', async () => {
    const a = await configured();
    const res = await deliver(a.accountId, event, 'whsec_test_signing_secret');
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('No v1 signature');
  });

  it('refuses a delivery signed with another account’s secret', async () => {
    const a = await configured();
    const b = await createAccount();
    await api('PUT', '/api/settings/payments', {
      token: b.token,
      body: { stripe_secret_key: KEY, stripe_webhook_secret: 'whsec_otherAccountSecret1' },
    });
    const res = await deliver(a.accountId, event, 'whsec_otherAccountSecret1');
    expect(res.status).toBe(400);
  });

  it('answers 404 for an account without payments configured', async () => {
    const a = await createAccount();
    const res = await deliver(a.accountId, event);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('No account receives payment webhooks at this address.');
  });

  it('answers 404 for an account id that is not a number', async () => {
    const res = await deliver('not-an-id', event);
    expect(res.status).toBe(404);
  });
});
