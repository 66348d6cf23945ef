// Outbox with immediate dispatch (issue 30 › 2): the batch that writes an event also writes its deliveries,
// first attempts leased to the writer, and stores the event already dispatched; after the commit the
// request's waitUntil sends those attempts and records them in one more D1 batch. The claim is that
// batch: the deliveries exist exactly when the event does, are unique per (event, endpoint) like the
// drain's, and their lease keeps every other party (a duplicate wake-up, the sweep) off them while the
// writer sends. What the writer never gets to is the fallback's: a lease that runs out (the request died
// between its commit and its sends) is found by the cron's sweep and sent through the queue (sweep.ts).
// The D1 cost per event is the write the event needed anyway plus the record batch.
import type { Db } from '../../db/client';
import { d1TimingOn, webhookInlineD1, withD1Time } from '../../db/d1-timing';
import { newEventDeliveriesStatement, releaseLeases } from '../../db/queries/webhook-deliveries';
import { enabledWebhooksStatement } from '../../db/queries/webhooks';
import type { ShardScope } from '../../db/shards';
import type { EventRow, Webhook, WebhookDelivery } from '../../db/schema/index';
import type { WebhookQueue } from '../../env';
import { dispatchedOutboxInsert, type OutboxEvent } from '../events/outbox';
import { deliveryContext } from './context';
import { attemptClaimed, LEASE_MS, MAX_ATTEMPTS, wakeUpsFor, type DeliverResult, type DeliveryContext } from './deliver';
import { eventBody } from './fan-out';
import { enqueueDeliveries, scheduleWakeUps } from './queue';

/** First attempts a request sends itself (its subrequests are shared with its D1 and queue calls); the rest go to the queue. */
export const INLINE_ATTEMPTS = 32;
/**
 * No inline send starts later than this after the sending began: the run ends within this plus one
 * attempt's timeout (ATTEMPT_TIMEOUT_MS) and its record batch, inside the 30 s a response's waitUntil has.
 */
export const INLINE_SEND_WINDOW_MS = 5_000;

export type WrittenEvents = {
  written: EventRow[];
  /** Their first attempts, leased to the writer until `leaseUntil`. */
  claimed: WebhookDelivery[];
  /** The account's enabled endpoints, read in the same batch. */
  endpoints: Webhook[];
  leaseUntil: string;
  now: number;
};

/**
 * Writes one account's events (none held for a seal) with their deliveries, in one D1 batch. The events
 * are stored dispatched, so no drain fans them out again.
 */
export async function writeEventsWithDeliveries(
  db: Db,
  accountId: number,
  rows: readonly Pick<OutboxEvent, 'event' | 'data'>[],
  now = Date.now(),
): Promise<WrittenEvents> {
  const at = new Date(now).toISOString();
  const leaseUntil = new Date(now + LEASE_MS).toISOString();
  const statements = rows.flatMap((row) => {
    const { statement, data } = dispatchedOutboxInsert(db, { ...row, accountId }, at);
    const requestBody = eventBody({ event: row.event, createdAt: at, data });
    return [
      statement,
      newEventDeliveriesStatement(db, { accountId, event: row.event, createdAt: at, requestBody, maxAttempts: MAX_ATTEMPTS, leaseUntil }),
    ];
  });
  const [endpoints, ...results] = await db.batch([enabledWebhooksStatement(db, accountId), ...statements]);
  return {
    written: results.filter((_, i) => i % 2 === 0).flat() as EventRow[],
    claimed: results.filter((_, i) => i % 2 === 1).flat() as WebhookDelivery[],
    endpoints,
    leaseUntil,
    now,
  };
}

/**
 * Sends the first attempts `writeEventsWithDeliveries` leased to this request (up to INLINE_ATTEMPTS, six
 * at a time, a slow endpoint not holding up the others: deliver.ts › attemptClaimed) and records them in
 * one batch; the rest are released and enqueued, retries and given-back attempts woken through the queue.
 */
export async function sendWritten(ctx: DeliveryContext, queue: WebhookQueue, w: WrittenEvents): Promise<Map<string, DeliverResult>> {
  const startedAt = Date.now();
  const overflow = w.claimed.slice(INLINE_ATTEMPTS).map((row) => row.deliveryUuid);
  if (overflow.length) {
    await releaseLeases(ctx.db, overflow, w.leaseUntil);
    await enqueueDeliveries(queue, overflow);
  }
  const inline = { ...ctx, sendWindowMs: Math.min(ctx.sendWindowMs ?? INLINE_SEND_WINDOW_MS, INLINE_SEND_WINDOW_MS) };
  const endpoints = new Map(w.endpoints.map((hook) => [hook.id, hook]));
  const results = await attemptClaimed(inline, w.claimed.slice(0, INLINE_ATTEMPTS), endpoints, {
    now: w.now,
    startedAt,
    leaseUntil: w.leaseUntil,
  });
  await scheduleWakeUps(queue, wakeUpsFor(results, w.now));
  return results;
}

/** For `ctx.waitUntil`: never rejects; whatever it did not send is the sweep's once the lease runs out. */
export async function dispatchAfterCommit(scope: ShardScope, w: WrittenEvents): Promise<void> {
  if (w.claimed.length === 0) return;
  const send = () => sendWritten(deliveryContext(scope.env, scope.db), scope.queues.webhooks, w);
  try {
    await (d1TimingOn(scope.env) ? withD1Time(webhookInlineD1, send) : send());
  } catch (err) {
    console.error('webhooks: inline dispatch failed; the sweep sends what it held once the lease runs out', err);
  }
}
