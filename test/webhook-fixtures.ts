// Fixtures for webhook delivery tests: endpoints pointing at the real receiver, outbox rows written the
// way other capabilities write them, and the queue consumer driven with an explicit clock.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import worker from '../src/index';
import { handleWebhookBatch } from '../src/queues/webhooks';
import { consumeByShard } from '../src/queues/shard-batches';
import { shardScope } from '../src/db/shards';
import { drainOutbox } from '../src/services/webhooks/fan-out';
import type { WebhookMessage, WebhookQueue } from '../src/env';
import { allShards, api, shardOf } from './helpers';
import { shardNumberOf } from './shard-fixtures';
import { newReceiver, type ReceiverConfig } from './webhook-receiver';

export const SECRET = 'test-secret-0123456789abcdef';

export async function receiverHook(token: string, options: { events?: string[]; receiver?: ReceiverConfig } = {}) {
  const receiver = await newReceiver({ secret: SECRET, ...options.receiver });
  const res = await api('POST', '/api/webhooks', { token, body: { url: receiver.url, events: options.events ?? [], secret: SECRET } });
  if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${res.text}`);
  return { hook: res.json as { id: number; url: string; secret: string }, receiver: receiver.name };
}

export async function insertEvent(accountId: number, event: string, data: Record<string, unknown> = { n: 1 }): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare('INSERT INTO events (account_id, event, data) VALUES (?, ?, ?) RETURNING id')
    .bind(accountId, event, JSON.stringify(data))
    .first<{ id: number }>();
  return row!.id;
}

/** A webhooks queue binding that records what it is sent (for tests where the consumer is not under test). */
export function recordingQueue() {
  const sent: WebhookMessage[] = [];
  const queue = {
    send: async (body: WebhookMessage) => void sent.push(body),
    sendBatch: async (messages: { body: WebhookMessage }[]) => void sent.push(...messages.map((m) => m.body)),
  } as unknown as WebhookQueue;
  return { sent, queue };
}

let messageCounter = 0;

/**
 * Runs the Worker's queue() export on these bodies; with `now`, the consumer behind it at that time (each
 * shard's part against its own shard, as queue() splits it). A body names its shard as producers stamp it.
 */
export async function runQueue(bodies: (WebhookMessage & { shard?: number })[], now?: number) {
  const batch = createMessageBatch<WebhookMessage>(
    'signing-service-webhooks',
    bodies.map((body) => ({ id: `m${++messageCounter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  if (now === undefined) await worker.queue(batch, env, ctx);
  else await consumeByShard(batch, env, (part, scope) => handleWebhookBatch(part, scope, { now }));
  return getQueueResult(batch, ctx);
}

/** Pending deliveries (of one endpoint, or all) on every shard, with the shard each lives on; ids are unique across shards. */
async function pendingDeliveries(webhookId?: number): Promise<{ id: number; deliveryUuid: string; shard: number }[]> {
  const found = await Promise.all(
    allShards().map(async (shard, n) => {
      const { results } = await shard
        .prepare(
          `SELECT id, delivery_uuid FROM webhook_deliveries WHERE status = 'pending' ${webhookId ? 'AND webhook_id = ?' : ''} ORDER BY id`,
        )
        .bind(...(webhookId ? [webhookId] : []))
        .all<{ id: number; delivery_uuid: string }>();
      return results.map((r) => ({ id: r.id, deliveryUuid: r.delivery_uuid, shard: n }));
    }),
  );
  return found.flat().sort((a, b) => a.id - b.id);
}

/**
 * The drain requests the producers of these accounts' shards send (one per distinct shard), run through
 * the consumer: what an API write or the cron asks for after it wrote events.
 */
export async function drainFor(accountIds: number | number[], now?: number) {
  const shards = new Set(await Promise.all([accountIds].flat().map(shardNumberOf)));
  return runQueue(
    [...shards].map((shard) => ({ kind: 'drain', shard })),
    now,
  );
}

/**
 * The cron's fan-out for these accounts' shards: deliveries written and woken through the queue, no
 * attempt made yet (the queue consumer's drain sends first attempts itself). For tests of the delivery
 * path that start from pending deliveries.
 */
export async function fanOutFor(accountIds: number | number[], now = Date.now()) {
  const shards = new Set(await Promise.all([accountIds].flat().map(shardNumberOf)));
  for (const shard of shards) {
    const { db, queues } = shardScope(env, shard);
    await drainOutbox(db, queues.webhooks, now);
  }
}

/** A wake-up message for one delivery, stamped with the shard its row lives on. */
export async function deliverMessage(deliveryUuid: string): Promise<WebhookMessage & { shard: number }> {
  const found = (await pendingDeliveries()).find((d) => d.deliveryUuid === deliveryUuid);
  if (!found) throw new Error(`No pending delivery ${deliveryUuid}`);
  return { kind: 'deliver', deliveryUuid, shard: found.shard };
}

export async function pendingUuids(webhookId?: number): Promise<string[]> {
  return (await pendingDeliveries(webhookId)).map((d) => d.deliveryUuid);
}

/** One consumer run over every pending delivery of this endpoint, as the queue would wake them (stamped with their shard). */
export async function deliverPending(webhookId: number, now?: number) {
  const pending = await pendingDeliveries(webhookId);
  if (pending.length === 0) return null;
  return runQueue(
    pending.map(({ deliveryUuid, shard }) => ({ kind: 'deliver', deliveryUuid, shard })),
    now,
  );
}

/** The shard database holding an endpoint's rows (webhook ids are unique across shards). */
export async function shardOfWebhook(webhookId: number): Promise<D1Database> {
  for (const shard of allShards()) {
    if (await shard.prepare('SELECT 1 FROM webhooks WHERE id = ?').bind(webhookId).first()) return shard;
  }
  throw new Error(`No webhook ${webhookId}`);
}

export type DeliveryRow = {
  id: number;
  delivery_uuid: string;
  attempt: number;
  status: string;
  http_status: number | null;
  error_message: string | null;
  next_attempt_at: string | null;
  attempted_at: string | null;
  request_body: string;
  response_body: string | null;
  event: string;
  test: number;
};

export async function deliveryRows(webhookId: number): Promise<DeliveryRow[]> {
  const shard = await shardOfWebhook(webhookId);
  const { results } = await shard
    .prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id')
    .bind(webhookId)
    .all<DeliveryRow>();
  return results;
}
