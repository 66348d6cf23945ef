// Issue 20 (a): a paid payment field's amount, currency and Stripe reference on the really sealed PDF —
// at the field's area and on the audit trail page — read back with pdftotext.
import { createExecutionContext, createMessageBatch, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { ShardStamp } from '../../src/lib/shard-queues';
import type { SealingQueueBody } from '../../src/env';
import { api } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { acceptDisclosure, page, type Fixture } from '../signing/fixtures';
import { shardNumberOf } from '../submission-fixtures';
import { checkout, deliver, payingFixture, settle } from './payment-fixtures';

async function seal(f: Fixture) {
  const shard = await shardNumberOf(f.account.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `seal-pay-${f.submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId: f.submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

async function sealedText(f: Fixture): Promise<string> {
  const list = await api('GET', `/api/submissions/${f.submissionId}/documents`, { token: f.account.token });
  expect(list.json.sealed).toBe(true);
  const res = await SELF.fetch(`https://api.test/api/submissions/${f.submissionId}/documents/${list.json.documents[0].id}`, {
    headers: { 'X-Auth-Token': f.account.token },
  });
  const { text, pdfsig } = await checkPdf(new Uint8Array(await res.arrayBuffer()));
  expect(pdfsig.output).toContain('Signature is Valid.');
  return text.output;
}

/** Pays the Deposit field through the imitation, completes the form and seals; returns the payment intent id. */
async function paidAndSealed(f: Fixture): Promise<string> {
  const { events } = await settle((await checkout(f)).json.url, 'pay');
  for (const event of events) await deliver(f.account.accountId, event);
  expect((await acceptDisclosure(f.submitters[0].slug)).status).toBe(200);
  expect((await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Paula Payer' } } })).status).toBe(
    200,
  );
  await seal(f);
  return String(events.find((e) => e.type === 'payment_intent.succeeded')!.data.object.id);
}

describe('paid payment fields on the sealed document', () => {
  it('draws the amount, currency and payment reference at the payment field on the sealed page', async () => {
    const f = await payingFixture();
    const intent = await paidAndSealed(f);
    const text = await sealedText(f);
    const beforeTrail = text.slice(0, text.indexOf('Audit trail'));
    expect(beforeTrail).toContain('Paid 25.00 EUR');
    expect(beforeTrail).toContain(intent);
  });

  it('lists the payment with amount, currency, reference and payer on the audit trail page', async () => {
    const f = await payingFixture();
    const intent = await paidAndSealed(f);
    const trail = (await sealedText(f)).split('Audit trail').slice(1).join('Audit trail');
    const payments = trail.slice(trail.indexOf('Payments'), trail.indexOf('Events'));
    expect(payments).toContain('Deposit — Deposit');
    expect(payments).toContain('25.00 EUR');
    expect(payments).toContain(`Payment reference`);
    expect(payments).toContain(intent);
    expect(payments).toContain(f.submitters[0].email);
  });

  it('shows what Stripe charged for the current checkout, not an older one the signer also paid', async () => {
    const f = await payingFixture({ formula: '{Hours} * 80', preferences: { currency: 'USD', description: 'Hours worked' } });
    const hours = (n: number) => page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Hours')]: n } } });
    await hours(1);
    const older = (await settle((await checkout(f)).json.url, 'pay')).events;
    await hours(2);
    const current = (await checkout(f)).json.url;
    // The older session's events arrive after the new checkout started: not counted.
    for (const event of older) await deliver(f.account.accountId, event);
    const paid = (await settle(current, 'pay')).events;
    for (const event of paid) await deliver(f.account.accountId, event);
    expect((await acceptDisclosure(f.submitters[0].slug)).status).toBe(200);
    expect(
      (await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'Paula Payer' } } })).status,
    ).toBe(200);
    await seal(f);

    const intent = (events: typeof paid) => String(events.find((e) => e.type === 'checkout.session.completed')!.data.object.payment_intent);
    const text = await sealedText(f);
    const [beforeTrail, trail] = [text.slice(0, text.indexOf('Audit trail')), text.split('Audit trail').slice(1).join('Audit trail')];
    const payments = trail.slice(trail.indexOf('Payments'), trail.indexOf('Events'));
    expect(beforeTrail).toContain('Paid 160.00 USD');
    expect(beforeTrail).toContain(intent(paid));
    expect(payments).toContain('160.00 USD');
    expect(payments).toContain(intent(paid));
    expect(text).not.toContain(intent(older));
  });
});
