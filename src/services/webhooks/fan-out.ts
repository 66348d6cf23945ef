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
  wakeUpsFor,
  type DeliverResult,
  type DeliveryContext,
} from './deliver';
import { enqueueDeliveries, scheduleWakeUps } from './queue';
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
  const result: DrainResult = { events: 0, deliveries: 0, more: false, attempts: new Map() };
  for (let round = 0; round < maxRounds; round += 1) {
    // Each attempt is a subrequest (an invocation has 1,000) and must start inside the send window.
    if (deliver && (result.attempts.size >= ATTEMPTS_PER_RUN || Date.now() - startedAt > (deliver.sendWindowMs ?? SEND_WINDOW_MS))) break;
    const { events: batch, endpoints: hooks } = await undispatchedWithEndpoints(db, EVENTS_PER_ROUND);
    if (batch.length === 0) return result;
    const budget = deliver ? ATTEMPTS_PER_RUN - result.attempts.size : 0;
    const done = await fanOutRound(db, queue, batch, hooks, { now, startedAt }, deliver, budget);
    for (const [uuid, attempt] of done.attempts) result.attempts.set(uuid, attempt);
    result.events += batch.length;
    result.deliveries += done.deliveries;
    if (batch.length < EVENTS_PER_ROUND) return result;
  }
  result.more = true;
  return result;
}

/** First attempts a request sends itself after writing its events (a request's subrequests are shared with its D1 and queue calls). */
export const INLINE_ATTEMPTS = 32;
/**
 * No inline send starts later than this after the dispatch began: the run ends within this plus one
 * attempt's timeout (ATTEMPT_TIMEOUT_MS) and its record batch, inside the 30 s a response's waitUntil has.
 */
export const INLINE_SEND_WINDOW_MS = 5_000;

/**
 * Outbox with immediate dispatch: the request that wrote `written` (the rows its insert returned, with
 * the account's enabled `endpoints` read in the same batch) fans them out itself once they are
 * committed — one D1 batch writes their deliveries leased to it and marks them (the claim of
 * fanOutRound: a consumer's drain racing it inserts nothing it already has), then it sends up to
 * INLINE_ATTEMPTS of them side by side and records them in one more batch. Deliveries beyond that are
 * enqueued, retries and given-back attempts are woken through the queue as the consumer's are. What this
 * run never gets to is the fallback's: an event not claimed (the request died after its commit) is fanned
 * out by the cron's drain, a claimed attempt never sent is re-enqueued by the sweep once its lease has
 * run out (sweep.ts).
 */
export async function dispatchWritten(
  ctx: DeliveryContext,
  queue: WebhookQueue,
  written: readonly EventRow[],
  endpoints: readonly Webhook[],
  now = Date.now(),
): Promise<DrainResult> {
  const startedAt = Date.now();
  const result: DrainResult = { events: 0, deliveries: 0, more: false, attempts: new Map() };
  // Held events wait for their seal, whose batch releases them and wakes the drain (outbox.ts).
  const free = written.filter((event) => event.heldForSeal === null && event.dispatchedAt === null);
  // Without endpoints there is nothing to send; the cron's drain marks them.
  if (free.length === 0 || endpoints.length === 0) return result;
  const inline = { ...ctx, sendWindowMs: Math.min(ctx.sendWindowMs ?? INLINE_SEND_WINDOW_MS, INLINE_SEND_WINDOW_MS) };
  const done = await fanOutRound(ctx.db, queue, free, endpoints, { now, startedAt }, inline, INLINE_ATTEMPTS);
  result.events = free.length;
  result.deliveries = done.deliveries;
  result.attempts = done.attempts;
  await scheduleWakeUps(queue, wakeUpsFor(done.attempts, now));
  return result;
}

/**
 * One round: writes the deliveries of `batch` to `hooks` and marks the events in one D1 batch — the claim:
 * a delivery row is unique per (event, endpoint), so of two parties fanning out the same event only the
 * one whose insert lands owns (and sends) it — then, with `deliver`, sends up to `budget` of the rows it
 * inserted (written leased to it) and records them in one more batch; the rest are enqueued.
 */
async function fanOutRound(
  db: Db,
  queue: WebhookQueue,
  batch: readonly EventRow[],
  hooks: readonly Webhook[],
  clock: { now: number; startedAt: number },
  deliver: DeliveryContext | undefined,
  budget: number,
): Promise<{ deliveries: number; attempts: Map<string, DeliverResult> }> {
  const { now, startedAt } = clock;
  const at = new Date(now).toISOString();
  const leaseUntil = new Date(now + LEASE_MS).toISOString();
  let left = deliver ? budget : 0;
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
        // Held by this run, which sends it below; beyond the run's budget it is left to a wake-up.
        leaseUntil: left-- > 0 ? leaseUntil : null,
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
  // Only rows this run really inserted are its own; a concurrent run sends (or enqueues) its own.
  const inserted = (results.slice(1) as WebhookDelivery[][]).flat();
  const held = inserted.filter((row) => row.leaseUntil !== null);
  // If this send is lost the rows stay pending and the cron sweep enqueues them (sweep.ts).
  await enqueueDeliveries(
    queue,
    inserted.filter((row) => row.leaseUntil === null).map((row) => row.deliveryUuid),
  );
  const attempts = new Map<string, DeliverResult>();
  if (deliver && held.length) {
    const endpoints = new Map(hooks.map((hook) => [hook.id, hook]));
    for (const [uuid, attempt] of await attemptClaimed(deliver, held, endpoints, { now, startedAt, leaseUntil })) attempts.set(uuid, attempt);
  }
  return { deliveries: inserted.length, attempts };
}
