// Shared by the payment tests: an account with its own Stripe key (accepted by the Stripe imitation), a
// signing fixture with a payment field, checkout through the signing page, and the imitation's Pay / Fail.
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { stripeSignature } from '../../src/services/billing/stripe-signature';
import { api } from '../helpers';
import { page, signingFixture, type Fixture } from '../signing/fixtures';

export const KEY = 'sk_test_acctFieldPayments01';
export const SECRET = 'whsec_fieldPaymentsSecret1';

export type StripeEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

export async function payingFixture(
  payment: Record<string, unknown> = { preferences: { amount: '25.00', currency: 'EUR', description: 'Deposit' } },
) {
  const f = await signingFixture({
    fields: [
      { name: 'Name', type: 'text' },
      { name: 'Hours', type: 'number', required: false },
      { name: 'Deposit', type: 'payment', ...payment },
    ],
  });
  const res = await api('PUT', '/api/settings/payments', {
    token: f.account.token,
    body: { stripe_secret_key: KEY, stripe_webhook_secret: SECRET },
  });
  expect(res.status).toBe(200);
  return f;
}

export function checkout(f: Fixture) {
  return page('POST', `/s/${f.submitters[0].slug}/payments/${f.field('Deposit')}/checkout`, { body: {} });
}

/** Presses Pay or Fail on the imitation's checkout page; returns where it redirects and the events it built. */
export async function settle(url: string, outcome: 'pay' | 'fail'): Promise<{ location: string | null; events: StripeEvent[] }> {
  const res = await fetch(`${url}/${outcome}`, { method: 'POST', redirect: 'manual' });
  const sessionId = url.split('/').pop()!;
  const events = (await (await fetch(`${env.STRIPE_API_BASE}/__events/${sessionId}`)).json()) as StripeEvent[];
  return { location: res.headers.get('Location'), events };
}

/** Stripe's delivery of one event: the body and its `Stripe-Signature` under the accounts' test secret. */
export async function signedDelivery(event: StripeEvent): Promise<{ body: string; headers: Record<string, string> }> {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': `t=${t},v1=${await stripeSignature(SECRET, t, body)}` },
  };
}

export async function deliver(accountId: number, event: StripeEvent) {
  const { body, headers } = await signedDelivery(event);
  return api('POST', `/api/payments/webhook/${accountId}`, { token: null, body, headers });
}

export async function stripeRequests(): Promise<{ path: string; authorization: string | null; form: Record<string, string> }[]> {
  return (await fetch(`${env.STRIPE_API_BASE}/__requests`)).json();
}
