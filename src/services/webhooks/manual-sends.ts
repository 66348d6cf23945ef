// Sends an integrator asks for: a synchronous test send of sample data, and a redelivery of a logged
// delivery's original body under a fresh delivery id (spec › Events › Test sends; decisions.md › Webhooks).
import { insertDelivery } from '../../db/queries/webhook-deliveries';
import type { Webhook, WebhookDelivery } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { EVENT_NAMES, isEventName, type EventName } from '../../lib/events';
import { MAX_ATTEMPTS, sendAttempt, type DeliveryContext } from './deliver';
import { sampleEventData } from './payloads';
import { enqueueDeliveries } from './queue';
import type { WebhookQueue } from '../../env';

/** The event a test send uses: the one asked for, else the first subscribed, else form.completed (spec). */
export function testEventFor(hook: Pick<Webhook, 'events'>, requested: string | undefined): EventName {
  if (requested !== undefined) {
    if (!isEventName(requested)) {
      throw unprocessable(`event "${requested}" is not a webhook event; valid names are ${EVENT_NAMES.join(', ')}.`);
    }
    return requested;
  }
  const first = hook.events.find(isEventName);
  return first ?? 'form.completed';
}

/** The body of a test send: the real shape plus `test: true` at top level, which real deliveries never carry. */
export function testBody(event: EventName, at: string): string {
  return JSON.stringify({ event, timestamp: at, data: sampleEventData(event, at), test: true });
}

/**
 * Sends once, synchronously, never retried, and logs the attempt with `test: true`. The row is written
 * after the attempt, so a crash mid-send leaves no pending row behind.
 */
export async function sendTestWebhook(ctx: DeliveryContext, hook: Webhook, event: EventName, now: number): Promise<WebhookDelivery> {
  const at = new Date(now).toISOString();
  const row = { deliveryUuid: crypto.randomUUID(), requestBody: testBody(event, at) };
  const { outcome } = await sendAttempt(ctx, row, hook, at, { test: true });
  return insertDelivery(ctx.db, {
    ...row,
    ...outcome,
    accountId: hook.accountId,
    webhookId: hook.id,
    eventId: null,
    event,
    attempt: 1,
    // A test send is never retried, so its one attempt is also its last.
    maxAttempts: 1,
    test: true,
  });
}

/** Queues the original body again under a fresh delivery id; the new delivery retries like any other. */
export async function redeliver(
  ctx: DeliveryContext,
  queue: WebhookQueue,
  hook: Webhook,
  original: WebhookDelivery,
  now: number,
): Promise<WebhookDelivery> {
  if (original.test) throw unprocessable('Test sends are not redelivered; send a new test with POST /api/webhooks/{id}/test.');
  if (!hook.enabled) throw unprocessable('The webhook is disabled; enable it before redelivering.');
  const at = new Date(now).toISOString();
  const row = await insertDelivery(ctx.db, {
    accountId: hook.accountId,
    webhookId: hook.id,
    eventId: original.eventId,
    event: original.event,
    deliveryUuid: crypto.randomUUID(),
    attempt: 1,
    maxAttempts: MAX_ATTEMPTS,
    status: 'pending',
    url: hook.url,
    requestBody: original.requestBody,
    nextAttemptAt: at,
    test: false,
    redeliveryOf: original.id,
  });
  // If this message is lost the cron sweep wakes the delivery a minute later.
  await enqueueDeliveries(queue, [row.deliveryUuid]).catch((err) => console.error('redeliver: enqueue failed', err));
  return row;
}
