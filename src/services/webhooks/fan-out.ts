// Drains the event outbox: each undispatched event becomes one delivery per enabled endpoint subscribed
// to it. Idempotent: the delivery rows are unique per (event, endpoint) and written insert-or-ignore in
// the same batch that marks the events dispatched, so an event is marked exactly when its deliveries exist.
// A round is three D1 calls whatever its size: one batch reads the events and their endpoints, one writes
// the deliveries and the marks, and one records the first attempts, which the consumer's drain sends
// itself (deliver.ts › attemptClaimed): the rows are written already leased to it, so no wake-up message
// and no claim stand between an event and its first delivery. The cron's drain only fans out and wakes
// the queue for each delivery.
import type { Db } from '../../db/client';
import { markDispatched, undispatchedWithEndpoints } from '../../db/queries/events';
import { fanOutInserts } from '../../db/queries/webhook-deliveries';
import type { EventRow, NewWebhookDelivery, Webhook, WebhookDelivery } from '../../db/schema/index';
import {
  ATTEMPTS_PER_RUN,
  attemptClaimed,
  LEASE_MS,
  MAX_ATTEMPTS,
  SEND_WINDOW_MS,
  type DeliverResult,
  type DeliveryContext,
} from './deliver';
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

export type DrainResult = {
  events: number;
  deliveries: number;
  /** Rounds were left for another drain (the round limit, the send window or the attempts budget). */
  more: boolean;
  /** The first attempts this drain made or gave back, by delivery uuid (for the wake-ups they ask for). */
  attempts: Map<string, DeliverResult>;
};

export type DrainOptions = {
  /** Send the first attempts from the drain (the queue consumer); without it each delivery is enqueued (the cron). */
  deliver?: DeliveryContext;
  maxRounds?: number;
};

export async function drainOutbox(db: Db, queue: WebhookQueue, now: number, options: DrainOptions = {}): Promise<DrainResult> {
  const { deliver, maxRounds = 10 } = options;
  const startedAt = Date.now();
  const at = new Date(now).toISOString();
  const result: DrainResult = { events: 0, deliveries: 0, more: false, attempts: new Map() };
  for (let round = 0; round < maxRounds; round += 1) {
    // Each attempt is a subrequest (an invocation has 1,000) and must start inside the send window.
    if (deliver && (result.attempts.size >= ATTEMPTS_PER_RUN || Date.now() - startedAt > (deliver.sendWindowMs ?? SEND_WINDOW_MS))) break;
    const { events: batch, endpoints: hooks } = await undispatchedWithEndpoints(db, EVENTS_PER_ROUND);
    if (batch.length === 0) return result;

    const leaseUntil = new Date(now + LEASE_MS).toISOString();
    let budget = deliver ? ATTEMPTS_PER_RUN - result.attempts.size : 0;
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
          // Held by this drain, which sends it below; beyond the run's budget it is left to a wake-up.
          leaseUntil: budget-- > 0 ? leaseUntil : null,
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
    // Only rows this drain really inserted are its own; a concurrent drain sends (or enqueues) its own.
    const inserted = (results.slice(1) as WebhookDelivery[][]).flat();
    const held = inserted.filter((row) => row.leaseUntil !== null);
    // If this send is lost the rows stay pending and the cron sweep enqueues them (sweep.ts).
    await enqueueDeliveries(
      queue,
      inserted.filter((row) => row.leaseUntil === null).map((row) => row.deliveryUuid),
    );
    if (deliver && held.length) {
      const endpoints = new Map(hooks.map((hook) => [hook.id, hook]));
      for (const [uuid, attempt] of await attemptClaimed(deliver, held, endpoints, { now, startedAt, leaseUntil })) {
        result.attempts.set(uuid, attempt);
      }
    }
    result.events += batch.length;
    result.deliveries += inserted.length;
    if (batch.length < EVENTS_PER_ROUND) return result;
  }
  result.more = true;
  return result;
}
