// Payment fields on the signing page: checkout with the account's key through the Stripe imitation,
// the account's webhook marking the field paid or failed, and completion refused until paid.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { stripeSignature } from '../../src/services/billing/stripe-signature';
import { api, shardOf } from '../helpers';
import { page, signingFixture, submitterRow, type Fixture, acceptDisclosure } from '../signing/fixtures';

const KEY = 'sk_test_acctFieldPayments01';
const SECRET = 'whsec_fieldPaymentsSecret1';

type StripeEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

async function payingFixture(payment: Record<string, unknown> = { preferences: { amount: '25.00', currency: 'EUR', description: 'Deposit' } }) {
  const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }, { name: 'Hours', type: 'number', required: false }, { name: 'Deposit', type: 'payment', ...payment }] });
  const res = await api('PUT', '/api/settings/payments', { token: f.account.token, body: { stripe_secret_key: KEY, stripe_webhook_secret: SECRET } });
  expect(res.status).toBe(200);
  return f;
}

function checkout(f: Fixture) {
  return page('POST', `/s/${f.submitters[0].slug}/payments/${f.field('Deposit')}/checkout`, { body: {} });
}

/** Presses Pay or Fail on the imitation's checkout page; returns where it redirects and the events it built. */
async function settle(url: string, outcome: 'pay' | 'fail'): Promise<{ location: string | null; events: StripeEvent[] }> {
  const res = await fetch(`${url}/${outcome}`, { method: 'POST', redirect: 'manual' });
  const sessionId = url.split('/').pop()!;
  const events = (await (await fetch(`${env.STRIPE_API_BASE}/__events/${sessionId}`)).json()) as StripeEvent[];
  return { location: res.headers.get('Location'), events };
}

async function deliver(accountId: number, event: StripeEvent) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  return api('POST', `/api/payments/webhook/${accountId}`, { token: null, body, headers: { 'Stripe-Signature': `t=${t},v1=${await stripeSignature(SECRET, t, body)}` } });
}

async function stripeRequests(): Promise<{ authorization: string | null; form: Record<string, string> }[]> {
  return (await fetch(`${env.STRIPE_API_BASE}/__requests`)).json();
}

describe('payment field checkout', () => {
  it('starts a Stripe Checkout in payment mode with the account’s own key and the field’s amount', async () => {
    const f = await payingFixture();
    const res = await checkout(f);
    expect(res.status).toBe(200);
    expect(res.json.url).toMatch(/\/checkout\/cs_test_/);
    const sent = (await stripeRequests()).filter((r) => r.form.mode === 'payment' && r.form['metadata[account_id]'] === String(f.account.accountId)).at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][description]': 'Deposit',
      success_url: `https://api.test/s/${f.submitters[0].slug}?payment=success`,
      cancel_url: `https://api.test/s/${f.submitters[0].slug}?payment=cancelled`,
    });
  });

  it('charges the amount the field’s formula computes from the signer’s values', async () => {
    const f = await payingFixture({ formula: '{Hours} * 80 + 0.5', preferences: { currency: 'USD' } });
    await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Hours')]: 3 } } });
    expect((await checkout(f)).status).toBe(200);
    const sent = (await stripeRequests()).filter((r) => r.form.mode === 'payment' && r.form['metadata[account_id]'] === String(f.account.accountId)).at(-1)!;
    expect(sent.form['line_items[0][price_data][unit_amount]']).toBe('24050');
  });

  it('refuses a checkout while the formula has nothing to compute from', async () => {
    const f = await payingFixture({ formula: '{Hours} * 80', preferences: { currency: 'USD' } });
    const res = await checkout(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('"Deposit" has no amount to pay yet: fill in the fields it is computed from with numbers that give an amount above 0.');
  });

  it('refuses a checkout when the account has no Stripe credentials', async () => {
    const f = await signingFixture({ fields: [{ name: 'Deposit', type: 'payment', preferences: { amount: 5, currency: 'USD' } }] });
    const res = await checkout(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Payments are not set up for this form yet; contact the sender.');
  });

  it('refuses a checkout for a field that is not a payment field', async () => {
    const f = await payingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/payments/${f.field('Name')}/checkout`, { body: {} });
    expect(res.status).toBe(422);
  });
});

describe('payment field webhooks and completion', () => {
  it('refuses to complete the form until the payment field is paid', async () => {
    const f = await payingFixture();
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Pay "Deposit" (25.00 EUR) before completing the form.');
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('marks the field paid from the webhook, and the form then completes with the payment reference as its value', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const { location, events } = await settle(url, 'pay');
    expect(location).toBe(`https://api.test/s/${f.submitters[0].slug}?payment=success`);
    for (const event of events) expect((await deliver(f.account.accountId, event)).status).toBe(200);
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann' } } });
    expect(res.status).toBe(200);
    const intent = events.find((e) => e.type === 'payment_intent.succeeded')!.data.object.id;
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[f.field('Deposit')]).toBe(intent);
  });

  it('ignores a payment value the signer sends themselves', async () => {
    const f = await payingFixture();
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann', [f.field('Deposit')]: 'pi_forged' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('Pay "Deposit"');
  });

  it('marks the field failed on a refused payment and keeps the form open', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const { location, events } = await settle(url, 'fail');
    expect(location).toBe(`https://api.test/s/${f.submitters[0].slug}?payment=cancelled`);
    const res = await deliver(f.account.accountId, events[0]);
    expect(res.json.outcome).toBe('applied');
    const shown = await page('GET', `/s/${f.submitters[0].slug}`);
    expect(shown.text).toContain('Your card was declined.');
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('lets the signer pay again after a refused payment', async () => {
    const f = await payingFixture();
    const first = (await checkout(f)).json.url;
    for (const event of (await settle(first, 'fail')).events) await deliver(f.account.accountId, event);
    const second = await checkout(f);
    expect(second.status).toBe(200);
    for (const event of (await settle(second.json.url, 'pay')).events) await deliver(f.account.accountId, event);
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann' } } });
    expect(res.status).toBe(200);
  });

  it('keeps a paid field paid when a failure arrives after the success', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const paid = (await settle(url, 'pay')).events;
    for (const event of paid) await deliver(f.account.accountId, event);
    const failed = { id: 'evt_late_failure', type: 'payment_intent.payment_failed', data: { object: { ...paid[0].data.object, last_payment_error: { message: 'Late.' } } } };
    expect((await deliver(f.account.accountId, failed)).json.outcome).toBe('unchanged');
    await acceptDisclosure(f.submitters[0].slug);
    expect((await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann' } } })).status).toBe(200);
  });

  it('refuses a second checkout once the field is paid', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    for (const event of (await settle(url, 'pay')).events) await deliver(f.account.accountId, event);
    const res = await checkout(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('"Deposit" is already paid.');
  });

  it('does not let another account’s webhook mark the payment paid', async () => {
    const f = await payingFixture();
    const g = await payingFixture();
    const { url } = (await checkout(f)).json;
    const { events } = await settle(url, 'pay');
    // Delivered to g's endpoint (same secret in these tests): the payment id is not g's.
    for (const event of events) expect((await deliver(g.account.accountId, event)).json.outcome).toBe('ignored');
    await acceptDisclosure(f.submitters[0].slug);
    expect((await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Ann' } } })).status).toBe(422);
  });

  it('deletes a submission permanently together with its payment rows', async () => {
    const f = await payingFixture();
    expect((await checkout(f)).status).toBe(200);
    const res = await api('DELETE', `/api/submissions/${f.submissionId}?permanently=true`, { token: f.account.token });
    expect(res.status).toBe(204);
    const left = await (await shardOf(f.account.accountId)).prepare('SELECT COUNT(*) AS n FROM payments WHERE submission_id = ?').bind(f.submissionId).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});
