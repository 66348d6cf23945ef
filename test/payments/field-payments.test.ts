// Payment fields on the signing page: checkout with the account's key through the Stripe imitation,
// the account's webhook marking the field paid or failed, and completion refused until paid.
import { describe, expect, it } from 'vitest';
import { api, shardOf } from '../helpers';
import { outboxRows } from '../submission-fixtures';
import { page, signingFixture, submitterRow, type Fixture, acceptDisclosure } from '../signing/fixtures';
import { KEY, checkout, deliver, payingFixture, settle, stripeRequests } from './payment-fixtures';

describe('payment field checkout', () => {
  it('starts a Stripe Checkout in payment mode with the account’s own key and the field’s amount', async () => {
    const f = await payingFixture();
    const res = await checkout(f);
    expect(res.status).toBe(200);
    expect(res.json.url).toMatch(/\/checkout\/cs_test_/);
    const sent = (await stripeRequests())
      .filter((r) => r.form.mode === 'payment' && r.form['metadata[account_id]'] === String(f.account.accountId))
      .at(-1)!;
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
    const sent = (await stripeRequests())
      .filter((r) => r.form.mode === 'payment' && r.form['metadata[account_id]'] === String(f.account.accountId))
      .at(-1)!;
    expect(sent.form['line_items[0][price_data][unit_amount]']).toBe('24050');
  });

  it('refuses a checkout while the formula has nothing to compute from', async () => {
    const f = await payingFixture({ formula: '{Hours} * 80', preferences: { currency: 'USD' } });
    const res = await checkout(f);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      '"Deposit" has no amount to pay yet: fill in the fields it is computed from with numbers that give an amount above 0.',
    );
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
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: { values: { [f.field('Name')]: 'Ann', [f.field('Deposit')]: 'pi_forged' } },
    });
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
    const failed = {
      id: 'evt_late_failure',
      type: 'payment_intent.payment_failed',
      data: { object: { ...paid[0].data.object, last_payment_error: { message: 'Late.' } } },
    };
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
    const left = await (await shardOf(f.account.accountId))
      .prepare('SELECT COUNT(*) AS n FROM payments WHERE submission_id = ?')
      .bind(f.submissionId)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe('payment events of payment fields', () => {
  const paymentEvents = (f: Fixture) => outboxRows("event LIKE 'payment.%' AND json_extract(data, '$.submission.id') = ?", f.submissionId);

  it('fires payment.created with the checkout session when a checkout starts', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const [created] = await paymentEvents(f);
    expect(created.event).toBe('payment.created');
    expect(created.data.payment).toMatchObject({
      kind: 'field',
      status: 'pending',
      amount: 2500,
      currency: 'EUR',
      description: 'Deposit',
      reference: url.split('/').pop(),
      field: { uuid: f.field('Deposit'), name: 'Deposit' },
    });
    expect(created.data.submitter).toMatchObject({ id: f.submitters[0].id, email: f.submitters[0].email });
  });

  it('fires payment.succeeded once with the payment intent when Stripe reports the payment, however often', async () => {
    const f = await payingFixture();
    const { events } = await settle((await checkout(f)).json.url, 'pay');
    for (const event of [...events, ...events]) await deliver(f.account.accountId, event);
    const succeeded = (await paymentEvents(f)).filter((e) => e.event === 'payment.succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0].data.payment).toMatchObject({
      status: 'paid',
      reference: events.find((e) => e.type === 'payment_intent.succeeded')!.data.object.id,
      failure_message: null,
    });
  });

  it('fires payment.failed with Stripe’s sentence when the card is refused', async () => {
    const f = await payingFixture();
    const { events } = await settle((await checkout(f)).json.url, 'fail');
    for (const event of events) await deliver(f.account.accountId, event);
    const failed = (await paymentEvents(f)).filter((e) => e.event === 'payment.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].data.payment).toMatchObject({ status: 'failed', failure_message: 'Your card was declined.' });
  });

  it('fires payment.canceled when an abandoned checkout expires', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const sessionId = url.split('/').pop()!;
    const [created] = await paymentEvents(f);
    const expired = {
      id: `evt_expired_${sessionId}`,
      type: 'checkout.session.expired',
      data: {
        object: { id: sessionId, object: 'checkout.session', status: 'expired', metadata: { payment_id: String(created.data.payment.id) } },
      },
    };
    expect((await deliver(f.account.accountId, expired)).json.outcome).toBe('applied');
    const canceled = (await paymentEvents(f)).filter((e) => e.event === 'payment.canceled');
    expect(canceled).toHaveLength(1);
    expect(canceled[0].data.payment).toMatchObject({
      status: 'canceled',
      reference: sessionId,
      failure_message: 'The payment was not finished in time.',
    });
  });

  it('fires no payment.failed for a failure arriving after the success', async () => {
    const f = await payingFixture();
    const paid = (await settle((await checkout(f)).json.url, 'pay')).events;
    for (const event of paid) await deliver(f.account.accountId, event);
    const late = {
      id: `evt_late_${paid[0].id}`,
      type: 'payment_intent.payment_failed',
      data: { object: { ...paid[0].data.object, last_payment_error: { message: 'Late.' } } },
    };
    await deliver(f.account.accountId, late);
    expect((await paymentEvents(f)).map((e) => e.event)).toEqual(['payment.created', 'payment.succeeded']);
  });
});

describe('payment fields when the API completes a submitter', () => {
  const complete = (f: Fixture, body: Record<string, unknown> = {}) =>
    api('PUT', `/api/submitters/${f.submitters[0].id}`, { token: f.account.token, body: { completed: true, ...body } });

  it('refuses to complete a submitter whose payment field is unpaid, and stores nothing of the request', async () => {
    const f = await payingFixture();
    const res = await complete(f, { values: { Name: 'Ann' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      '"Deposit" is a payment field the signer pays on the signing page; the API can complete this submitter only once it is paid.',
    );
    const row = await submitterRow(f.submitters[0].id);
    expect(row.status).not.toBe('completed');
    expect(JSON.parse(row.values ?? '{}')[f.field('Name')]).toBeUndefined();
  });

  it('refuses a payment field’s value set through the API', async () => {
    const f = await payingFixture();
    const res = await complete(f, { values: { Name: 'Ann', Deposit: 'pi_forged' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitter: Field "Deposit" is paid by the signer on the signing page; it cannot be prefilled.');
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('completes a submitter who paid on the page, with the payment reference as the field’s value', async () => {
    const f = await payingFixture();
    const { url } = (await checkout(f)).json;
    const { events } = await settle(url, 'pay');
    for (const event of events) expect((await deliver(f.account.accountId, event)).status).toBe(200);
    const res = await complete(f, { values: { Name: 'Ann' } });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('completed');
    const intent = events.find((e) => e.type === 'payment_intent.succeeded')!.data.object.id;
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[f.field('Deposit')]).toBe(intent);
  });
});
