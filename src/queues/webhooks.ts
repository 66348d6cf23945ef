// Queue consumer for the webhooks queue: a thin dispatcher into services/webhooks.
import { d1TimingOn, webhookConsumerD1, withD1Time } from '../db/d1-timing';
import type { ShardScope } from '../db/shards';
import { deliveryContext } from '../services/webhooks/context';
import { deliverDue } from '../services/webhooks/deliver';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain, scheduleWakeUps } from '../services/webhooks/queue';
import type { WebhookMessage } from '../env';

export type ConsumerOptions = {
  /** The clock; tests pass a later time to reach retries without waiting. */
  now?: number;
};

/**
 * One shard's part of a batch (src/queues/shard-batches.ts). With D1 timing on (development, bench/webhooks)
 * its D1 calls are counted into `webhookConsumerD1`.
 */
export async function handleWebhookBatch(
  batch: MessageBatch<WebhookMessage>,
  scope: ShardScope,
  options: ConsumerOptions = {},
): Promise<void> {
  if (!d1TimingOn(scope.env)) return consume(batch, scope, options);
  return withD1Time(webhookConsumerD1, () => consume(batch, scope, options));
}

async function consume(batch: MessageBatch<WebhookMessage>, scope: ShardScope, options: ConsumerOptions): Promise<void> {
  const { env, queues } = scope;
  const now = options.now ?? Date.now();
  const ctx = deliveryContext(env, scope.db);
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
          const result = await drainOutbox(ctx.db, queues.webhooks, now);
          if (result.more) await requestDrain(queues.webhooks);
          for (const m of drains) m.ack();
        } catch (err) {
          console.error('webhooks queue: drain failed', err);
          for (const m of drains) m.retry();
        }
      })(),
    );
  }
  if (byDelivery.size) {
    work.push(
      (async () => {
        const all = [...byDelivery.values()].flat();
        try {
          const results = await deliverDue(ctx, [...byDelivery.keys()], now);
          // The next wake-up is a fresh message, not message.retry(): D1 counts attempts, and a message's
          // own retry budget would run out on early wake-ups (docs/decisions.md › Issue 7).
          const wakeUps: { deliveryUuid: string; delaySeconds: number }[] = [];
          for (const [deliveryUuid, result] of results) {
            if (result.kind === 'deferred') wakeUps.push({ deliveryUuid, delaySeconds: 0 });
            const wakeAt = result.kind === 'attempted' ? result.retryAt : result.kind === 'not_due' ? result.dueAt : null;
            if (wakeAt) wakeUps.push({ deliveryUuid, delaySeconds: (Date.parse(wakeAt) - now) / 1000 });
          }
          // A lost wake-up is found by the cron sweep.
          await scheduleWakeUps(queues.webhooks, wakeUps).catch((err) => console.error('webhooks queue: wake-up send failed', err));
          for (const m of all) m.ack();
        } catch (err) {
          console.error('webhooks queue: deliveries failed to run', err);
          for (const m of all) m.retry();
        }
      })(),
    );
  }
  await Promise.all(work);
}
