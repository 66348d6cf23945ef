// Fixtures for webhook delivery tests: endpoints pointing at the real receiver, outbox rows written the
// way other capabilities write them, and the queue consumer driven with an explicit clock.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import worker from '../src/index';
import { handleWebhookBatch } from '../src/queues/webhooks';
import type { WebhookMessage } from '../src/services/webhooks/queue';
import { api } from './helpers';
import { newReceiver, type ReceiverConfig } from './webhook-receiver';

export const SECRET = 'test-secret-0123456789abcdef';

export async function receiverHook(token: string, options: { events?: string[]; receiver?: ReceiverConfig } = {}) {
  const receiver = await newReceiver({ secret: SECRET, ...options.receiver });
  const res = await api('POST', '/api/webhooks', { token, body: { url: receiver.url, events: options.events ?? [], secret: SECRET } });
  if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${res.text}`);
  return { hook: res.json as { id: number; url: string; secret: string }, receiver: receiver.name };
}

export async function insertEvent(accountId: number, event: string, data: Record<string, unknown> = { n: 1 }): Promise<number> {
  const row = await env.DB.prepare('INSERT INTO events (account_id, event, data) VALUES (?, ?, ?) RETURNING id')
    .bind(accountId, event, JSON.stringify(data))
    .first<{ id: number }>();
  return row!.id;
}

let messageCounter = 0;

/** Runs the Worker's queue() export on these bodies; with `now`, the consumer behind it at that time. */
export async function runQueue(bodies: WebhookMessage[], now?: number) {
  const batch = createMessageBatch<WebhookMessage>(
    'signing-service-webhooks',
    bodies.map((body) => ({ id: `m${++messageCounter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  if (now === undefined) await worker.queue(batch, env, ctx);
  else await handleWebhookBatch(batch, env, { now });
  return getQueueResult(batch, ctx);
}

export async function pendingUuids(webhookId?: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT delivery_uuid FROM webhook_deliveries WHERE status = 'pending' ${webhookId ? 'AND webhook_id = ?' : ''} ORDER BY id`,
  )
    .bind(...(webhookId ? [webhookId] : []))
    .all<{ delivery_uuid: string }>();
  return results.map((r) => r.delivery_uuid);
}

/** One consumer run over every pending delivery of this endpoint, as the queue would wake them. */
export async function deliverPending(webhookId: number, now?: number) {
  const uuids = await pendingUuids(webhookId);
  if (uuids.length === 0) return null;
  return runQueue(
    uuids.map((deliveryUuid) => ({ kind: 'deliver', deliveryUuid })),
    now,
  );
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
  const { results } = await env.DB.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id').bind(webhookId).all<DeliveryRow>();
  return results;
}
