// Standard Webhooks (issue 32 point 4): a real delivery, sent by our queue consumer and received by the real
// local receiver, verifies with the `standardwebhooks` library exactly as docs/webhooks.md tells receivers to.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../helpers';
import { deliverPending, deliveryRows, drainFor, insertEvent, receiverHook, SECRET } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

async function oneRealDelivery() {
  const a = await createAccount();
  const { hook, receiver } = await receiverHook(a.token);
  await insertEvent(a.accountId, 'form.completed', { submitter: { name: 'Zoë Łukasiewicz 🖋' } });
  await drainFor(a.accountId);
  await deliverPending(hook.id);
  const [delivery] = await receivedBy(receiver);
  return { delivery, hook };
}

describe('Standard Webhooks headers', () => {
  it('are accepted by standardwebhooks’ Webhook.verify with the endpoint secret in raw format', async () => {
    const { delivery } = await oneRealDelivery();
    const verified = new Webhook(SECRET, { format: 'raw' }).verify(delivery.body, delivery.headers);
    expect(verified).toEqual(JSON.parse(delivery.body));
  });

  it('are refused by Webhook.verify once one byte of the body changes', async () => {
    const { delivery } = await oneRealDelivery();
    const i = delivery.body.indexOf('form.completed');
    const tampered = `${delivery.body.slice(0, i)}F${delivery.body.slice(i + 1)}`;
    expect(tampered).not.toBe(delivery.body);
    expect(() => new Webhook(SECRET, { format: 'raw' }).verify(tampered, delivery.headers)).toThrow(WebhookVerificationError);
  });

  it('carry the delivery id as webhook-id and the attempt time as webhook-timestamp, beside the spec’s headers', async () => {
    const { delivery, hook } = await oneRealDelivery();
    const [row] = await deliveryRows(hook.id);
    expect(delivery.headers['webhook-id']).toBe(row.delivery_uuid);
    expect(delivery.headers['x-webhook-delivery-id']).toBe(row.delivery_uuid);
    expect(Number(delivery.headers['webhook-timestamp'])).toBe(Math.floor(Date.parse(row.attempted_at!) / 1000));
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(delivery.signatureValid).toBe(true);
  });
});
