// Queue consumer for the webhooks queue: a thin dispatcher into services/webhooks.
import { d1TimingOn, webhookConsumerD1, withD1Time } from '../db/d1-timing';
import type { ShardScope } from '../db/shards';
import { deliveryContext } from '../services/webhooks/context';
import { deliverDue, wakeUpsFor, type DeliverResult } from '../services/webhooks/deliver';
import { drainPacer, drainSpacingMs, type DrainPacer } from '../services/webhooks/drain-pacing';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain, scheduleWakeUps } from '../services/webhooks/queue';
import type { WebhookMessage, WebhookQueue } from '../env';

export type ConsumerOptions = {
  /** The clock; tests pass a later time to reach retries without waiting. */
  now?: number;
  /** Spaces this isolate's drains (drain-pacing.ts); by default the isolate's own, at the environment's spacing. */
  pacer?: DrainPacer;
};

/** The isolate's pacer, made once for the spacing the environment sets. */
let isolatePacer: { spacingMs: number; pacer: DrainPacer } | undefined;

function pacerFor(env: ShardScope['env']): DrainPacer {
  const spacingMs = drainSpacingMs(env);
  if (isolatePacer?.spacingMs !== spacingMs) isolatePacer = { spacingMs, pacer: drainPacer(spacingMs) };
  return isolatePacer.pacer;
}

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

  // One after the other, so the run never holds more than one pool's connections (deliver.ts › SEND_CONNECTIONS);
  // the drain first: its first attempts are the ones someone is waiting for.
  if (drains.length) {
    // Many drain requests in one batch need one drain.
    try {
      // Under load, wait for the events of the next few milliseconds rather than drain one at a time.
      await (options.pacer ?? pacerFor(env)).turn(scope.shard);
      const result = await drainOutbox(ctx.db, queues.webhooks, options.now ?? Date.now(), { deliver: ctx });
      if (result.more) await requestDrain(queues.webhooks);
      await wakeUp(queues.webhooks, result.attempts, now);
      for (const m of drains) m.ack();
    } catch (err) {
      console.error('webhooks queue: drain failed', err);
      for (const m of drains) m.retry();
    }
  }
  if (byDelivery.size) {
    const all = [...byDelivery.values()].flat();
    try {
      await wakeUp(queues.webhooks, await deliverDue(ctx, [...byDelivery.keys()], now), now);
      for (const m of all) m.ack();
    } catch (err) {
      console.error('webhooks queue: deliveries failed to run', err);
      for (const m of all) m.retry();
    }
  }
}

/**
 * The next wake-ups are fresh messages, not message.retry(): D1 counts attempts, and a message's own retry
 * budget would run out on early wake-ups (docs/decisions.md › Issue 7). A lost wake-up is found by the cron sweep.
 */
async function wakeUp(queue: WebhookQueue, results: ReadonlyMap<string, DeliverResult>, now: number): Promise<void> {
  await scheduleWakeUps(queue, wakeUpsFor(results, now)).catch((err) => console.error('webhooks queue: wake-up send failed', err));
}
