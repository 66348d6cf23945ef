// Drains the event outbox: each undispatched event becomes one delivery per enabled endpoint subscribed
// to it, and each new delivery one queue message. Idempotent: the delivery rows are unique per
// (event, endpoint) and written insert-or-ignore in the same batch that marks the events dispatched.
// A round is two D1 calls whatever its size: one batch reads the events and their endpoints, one writes
// the deliveries and the marks.
import type { Db } from '../../db/client';
import { markDispatched, undispatchedWithEndpoints } from '../../db/queries/events';
import { fanOutInserts } from '../../db/queries/webhook-deliveries';
import type { EventRow, NewWebhookDelivery, Webhook } from '../../db/schema/index';
import { MAX_ATTEMPTS } from './deliver';
import { enqueueDeliveries } from './queue';
import type { WebhookQueue } from '../../env';

/** Events per round: keeps each write batch well inside D1's limits (bodies are capped, lib/event-payload-cap). */
const EVENTS_PER_ROUND = 100;

/** The exact bytes every attempt of this event's deliveries sends (spec › Events: `{event, timestamp, data}`). */
export function eventBody(event: Pick<EventRow, 'event' | 'createdAt' | 'data'>): string {
  return JSON.stringify({ event: event.event, timestamp: event.createdAt, data: event.data });
}

/** Empty `events` subscribes to everything (decisions.md › Webhooks). */
export function subscribes(hook: Pick<Webhook, 'events'>, event: string): boolean {
  return hook.events.length === 0 || hook.events.includes(event);
}

export type DrainResult = { events: number; deliveries: number; more: boolean };

export async function drainOutbox(db: Db, queue: WebhookQueue, now: number, maxRounds = 10): Promise<DrainResult> {
  const at = new Date(now).toISOString();
  const result: DrainResult = { events: 0, deliveries: 0, more: false };
  for (let round = 0; round < maxRounds; round += 1) {
    const { events: batch, endpoints: hooks } = await undispatchedWithEndpoints(db, EVENTS_PER_ROUND);
    if (batch.length === 0) return result;

    const hooksOf = new Map<number, Webhook[]>();
    for (const hook of hooks) hooksOf.set(hook.accountId, [...(hooksOf.get(hook.accountId) ?? []), hook]);
    const rows: NewWebhookDelivery[] = [];
    for (const event of batch) {
      const body = eventBody(event);
      for (const hook of hooksOf.get(event.accountId) ?? []) {
        // An endpoint receives the events that happened after it existed, not the backlog before it.
        if (!subscribes(hook, event.event) || hook.createdAt > event.createdAt) continue;
        rows.push({
          accountId: event.accountId,
          webhookId: hook.id,
          eventId: event.id,
          event: event.event,
          deliveryUuid: crypto.randomUUID(),
          attempt: 1,
          maxAttempts: MAX_ATTEMPTS,
          status: 'pending',
          url: hook.url,
          requestBody: body,
          nextAttemptAt: at,
          test: false,
        });
      }
    }

    const inserts = fanOutInserts(db, rows);
    const mark = markDispatched(
      db,
      batch.map((e) => e.id),
      at,
    );
    const results = await db.batch([mark, ...inserts]);
    // Only rows this drain really inserted get a message; a concurrent drain sends its own.
    const inserted = (results.slice(1) as { deliveryUuid: string }[][]).flat().map((r) => r.deliveryUuid);
    // If this send is lost the rows stay pending and the cron sweep enqueues them (sweep.ts).
    await enqueueDeliveries(queue, inserted);
    result.events += batch.length;
    result.deliveries += inserted.length;
    if (batch.length < EVENTS_PER_ROUND) return result;
  }
  result.more = true;
  return result;
}
