// Queue consumer for the webhooks queue: a thin dispatcher into services/webhooks.
import type { Bindings } from '../env';
import { deliveryContext } from '../services/webhooks/context';
import { deliverDue } from '../services/webhooks/deliver';
import { drainOutbox } from '../services/webhooks/fan-out';
import { enqueueDeliveries, requestDrain, type WebhookMessage } from '../services/webhooks/queue';

export type ConsumerOptions = {
  /** The clock; tests pass a later time to reach retries without waiting. */
  now?: number;
};

export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Bindings, options: ConsumerOptions = {}): Promise<void> {
  const now = options.now ?? Date.now();
  const ctx = deliveryContext(env);
  const drains: Message<WebhookMessage>[] = [];
  const byDelivery = new Map<string, Message<WebhookMessage>[]>();
  for (const message of batch.messages) {
    const body = message.body;
    if (body?.kind === 'drain') drains.push(message);
    else if (body?.kind === 'deliver' && typeof body.deliveryUuid === 'string') {
      byDelivery.set(body.deliveryUuid, [...(byDelivery.get(body.deliveryUuid) ?? []), message]);
    } else {
      console.warn('webhooks queue: dropping a message of unknown shape');
      message.ack();
    }
  }

  const work: Promise<void>[] = [];
  if (drains.length) {
    // Many drain requests in one batch need one drain.
    work.push(
      (async () => {
        try {
          const result = await drainOutbox(ctx.db, env.WEBHOOK_QUEUE, now);
          if (result.more) await requestDrain(env.WEBHOOK_QUEUE);
          for (const m of drains) m.ack();
        } catch (err) {
          console.error('webhooks queue: drain failed', err);
          for (const m of drains) m.retry();
        }
      })(),
    );
  }
  for (const [deliveryUuid, messages] of byDelivery) {
    work.push(
      (async () => {
        try {
          const result = await deliverDue(ctx, deliveryUuid, now);
          // The next wake-up is a fresh message, not message.retry(): D1 counts attempts, and a message's
          // own retry budget would run out on early wake-ups (docs/decisions.md › Issue 7).
          const wakeAt = result.kind === 'attempted' ? result.retryAt : result.kind === 'not_due' ? result.dueAt : null;
          if (wakeAt) await enqueueDeliveries(env.WEBHOOK_QUEUE, [deliveryUuid], (Date.parse(wakeAt) - now) / 1000);
          for (const m of messages) m.ack();
        } catch (err) {
          console.error(`webhooks queue: delivery ${deliveryUuid} failed to run`, err);
          for (const m of messages) m.retry();
        }
      })(),
    );
  }
  await Promise.all(work);
}
