// Webhook delivery log rows: one per attempt. The pending row of a delivery is the work item; a consumer
// takes it with a lease (a conditional UPDATE), so two consumers never attempt the same row at once.
import { and, asc, eq, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { inList, insertPacked } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { events, webhookDeliveries, webhooks, type NewWebhookDelivery, type Webhook, type WebhookDelivery } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

const d = webhookDeliveries;

/**
 * Inserts for a fan-out; a row whose (event, endpoint) already has one is skipped, so running the same
 * fan-out twice inserts nothing. Each statement returns the rows it really inserted: a row written with
 * a lease is this fan-out's to send, one a concurrent fan-out inserted first is not.
 */
export function fanOutInserts(db: Db, rows: NewWebhookDelivery[]) {
  return insertPacked(d, rows, (chunk) => db.insert(d).values(chunk).onConflictDoNothing().returning());
}

/** A version 4 UUID from SQLite's randomness, drawn per row (crypto.randomUUID() inside an INSERT … SELECT). */
const randomUuid = sql<string>`lower(printf('%s-%s-4%s-%s%s-%s', hex(randomblob(4)), hex(randomblob(2)), substr(hex(randomblob(2)), 2), substr('89ab', 1 + (abs(random()) % 4), 1), substr(hex(randomblob(2)), 2), hex(randomblob(6))))`;

export type NewEventDeliveries = {
  accountId: number;
  event: string;
  /** The event's `created_at`, which the statement before this one in the batch inserted it with. */
  createdAt: string;
  /** The exact bytes every attempt sends (fan-out.ts › eventBody). */
  requestBody: string;
  maxAttempts: number;
  /** The writer holds the first attempts until then and sends them itself. */
  leaseUntil: string;
};

/**
 * For the batch that inserts an event, right after that insert: its deliveries, one per enabled endpoint
 * of the account subscribed to it that existed when it happened (the fan-out's rule), first attempts due
 * now and leased to the writer. The event is the newest row of `events` inside the batch's transaction.
 * Returns the rows inserted.
 */
export function newEventDeliveriesStatement(db: Db, e: NewEventDeliveries) {
  const w = webhooks;
  return db
    .insert(d)
    .select(
      db
        .select({
          id: sql<number>`NULL`.as('id'),
          accountId: w.accountId,
          webhookId: w.id,
          eventId: sql<number>`(SELECT max(${events.id}) FROM ${events})`.as('eventId'),
          event: sql<string>`${e.event}`.as('event'),
          deliveryUuid: randomUuid.as('deliveryUuid'),
          attempt: sql<number>`1`.as('attempt'),
          maxAttempts: sql<number>`${e.maxAttempts}`.as('maxAttempts'),
          status: sql<string>`'pending'`.as('status'),
          url: w.url,
          requestBody: sql<string>`${e.requestBody}`.as('requestBody'),
          requestHeaders: sql<null>`NULL`.as('requestHeaders'),
          httpStatus: sql<null>`NULL`.as('httpStatus'),
          responseBody: sql<null>`NULL`.as('responseBody'),
          responseTimeMs: sql<null>`NULL`.as('responseTimeMs'),
          errorMessage: sql<null>`NULL`.as('errorMessage'),
          nextAttemptAt: sql<string>`${e.createdAt}`.as('nextAttemptAt'),
          leaseUntil: sql<string>`${e.leaseUntil}`.as('leaseUntil'),
          attemptedAt: sql<null>`NULL`.as('attemptedAt'),
          deliveredAt: sql<null>`NULL`.as('deliveredAt'),
          test: sql<number>`0`.as('test'),
          redeliveryOf: sql<null>`NULL`.as('redeliveryOf'),
          createdAt: sql<string>`${e.createdAt}`.as('createdAt'),
        })
        .from(w)
        .where(
          and(
            eq(w.accountId, e.accountId),
            eq(w.enabled, true),
            isNull(w.deletedAt),
            lte(w.createdAt, e.createdAt),
            // Empty `events` subscribes to everything (fan-out.ts › subscribes).
            sql`(json_array_length(${w.events}) = 0 OR EXISTS (SELECT 1 FROM json_each(${w.events}) WHERE json_each.value = ${e.event}))`,
          ),
        ),
    )
    .returning();
}

/** Gives back leases taken until `leaseUntil` on these deliveries' pending attempts. */
export async function releaseLeases(db: Db, deliveryUuids: string[], leaseUntil: string): Promise<void> {
  if (deliveryUuids.length === 0) return;
  await db
    .update(d)
    .set({ leaseUntil: null })
    .where(and(inList(d.deliveryUuid, deliveryUuids), eq(d.status, 'pending'), eq(d.leaseUntil, leaseUntil)));
}

export async function insertDelivery(db: Db, values: NewWebhookDelivery): Promise<WebhookDelivery> {
  const [row] = await db.insert(d).values(values).returning();
  return row;
}

export type Claim = {
  /** The attempts taken, leased until `leaseUntil`. */
  claimed: WebhookDelivery[];
  /** Their endpoints by id, deleted and disabled ones included: the consumer decides what those mean. */
  endpoints: Map<number, Webhook>;
  /** When each asked-for delivery's pending attempt is due (deliveries with none are absent). */
  dueAt: Map<string, string | null>;
};

/**
 * Takes the due pending attempts of these deliveries until `leaseUntil`, and reads their endpoints and
 * the due times of the rest, in one D1 batch (one round trip whatever the number of deliveries: the
 * uuids are bound as one list). A delivery not claimed has nothing to take: finished, not yet due, or
 * held by a live lease elsewhere.
 */
export async function claimDueAttempts(db: Db, deliveryUuids: string[], now: string, leaseUntil: string): Promise<Claim> {
  if (deliveryUuids.length === 0) return { claimed: [], endpoints: new Map(), dueAt: new Map() };
  const asked = inList(d.deliveryUuid, deliveryUuids);
  const [claimed, endpoints, pending] = await db.batch([
    db
      .update(d)
      .set({ leaseUntil })
      .where(and(asked, eq(d.status, 'pending'), lte(d.nextAttemptAt, now), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
      .returning(),
    db
      .select()
      .from(webhooks)
      .where(
        sql`${webhooks.id} IN (SELECT ${d.webhookId} FROM ${d} WHERE ${asked} AND ${d.status} = 'pending' AND ${d.leaseUntil} = ${leaseUntil})`,
      ),
    db
      .select({ deliveryUuid: d.deliveryUuid, nextAttemptAt: d.nextAttemptAt })
      .from(d)
      .where(and(asked, eq(d.status, 'pending'))),
  ]);
  return {
    claimed,
    endpoints: new Map(endpoints.map((row) => [row.id, row])),
    dueAt: new Map(pending.map((r) => [r.deliveryUuid, r.nextAttemptAt])),
  };
}

export type AttemptOutcome = Pick<
  WebhookDelivery,
  'status' | 'url' | 'requestHeaders' | 'httpStatus' | 'responseBody' | 'responseTimeMs' | 'errorMessage' | 'attemptedAt' | 'deliveredAt'
>;

export type RecordedAttempt = { row: WebhookDelivery; outcome: AttemptOutcome; next: NewWebhookDelivery | null };

/**
 * Records attempts and, for failures with attempts left, schedules the next ones; and gives back the
 * leases of claimed attempts this consumer did not get to (`released`, taken until `leaseUntil`) — all in
 * one batch, so a crash leaves the attempts still pending (retaken when their lease runs out) or
 * everything written. The unique (delivery_uuid, attempt) index makes recording the same attempt twice
 * schedule one retry.
 */
export async function recordAttempts(
  db: Db,
  attempts: RecordedAttempt[],
  released?: { deliveryUuids: string[]; leaseUntil: string },
): Promise<void> {
  const statements = attempts.flatMap(({ row, outcome, next }) => {
    const update = db
      .update(d)
      .set({ ...outcome, nextAttemptAt: null, leaseUntil: null })
      .where(and(eq(d.id, row.id), eq(d.status, 'pending')));
    return next ? [update, db.insert(d).values(next).onConflictDoNothing()] : [update];
  });
  if (released?.deliveryUuids.length) {
    statements.push(
      db
        .update(d)
        .set({ leaseUntil: null })
        .where(and(inList(d.deliveryUuid, released.deliveryUuids), eq(d.status, 'pending'), eq(d.leaseUntil, released.leaseUntil))),
    );
  }
  if (statements.length === 0) return;
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
}

export async function getDelivery(db: Db, accountId: number, webhookId: number, id: number): Promise<WebhookDelivery | undefined> {
  return db
    .select()
    .from(d)
    .where(and(eq(d.accountId, accountId), eq(d.webhookId, webhookId), eq(d.id, id)))
    .get();
}

export type DeliveryFilters = { status?: string; event?: string };

export async function listDeliveries(
  db: Db,
  accountId: number,
  webhookId: number,
  filters: DeliveryFilters,
  window: CursorWindow,
): Promise<WebhookDelivery[]> {
  const { where, orderBy } = cursorConditions(d.id, window);
  const conditions: (SQL | undefined)[] = [
    eq(d.webhookId, webhookId),
    eq(d.accountId, accountId),
    filters.status ? eq(d.status, filters.status) : undefined,
    filters.event ? eq(d.event, filters.event) : undefined,
    ...where,
  ];
  return db
    .select()
    .from(d)
    .where(and(...conditions))
    .orderBy(orderBy)
    .limit(window.take);
}

/**
 * Pending attempts due before `dueBefore` whose lease (if any) has run out: their wake-up message was
 * lost (crash between commit and send) or their consumer died mid-attempt.
 */
export async function strandedDeliveryUuids(db: Db, dueBefore: string, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ deliveryUuid: d.deliveryUuid })
    .from(d)
    .where(and(eq(d.status, 'pending'), lte(d.nextAttemptAt, dueBefore), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
    .orderBy(asc(d.nextAttemptAt))
    .limit(limit);
  return rows.map((r) => r.deliveryUuid);
}

/**
 * Retention: deletes up to `limit` finished attempt rows (success or failed) created before `before`,
 * skipping every row of a delivery that still has a pending attempt, so a retrying delivery keeps its
 * whole history. Ids are chosen by a subquery, so the statement binds two parameters whatever `limit` is.
 */
export async function pruneFinishedDeliveries(db: Db, before: string, limit: number): Promise<number> {
  const doomed = db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        lt(d.createdAt, before),
        sql`${d.status} <> 'pending'`,
        sql`NOT EXISTS (SELECT 1 FROM ${d} AS p WHERE p.delivery_uuid = ${d.deliveryUuid} AND p.status = 'pending')`,
        notFenced(d.accountId),
      ),
    )
    .orderBy(asc(d.createdAt))
    .limit(limit)
    .as('doomed');
  const deleted = await db.delete(d).where(sql`${d.id} IN (SELECT ${doomed.id} FROM ${doomed})`).returning({ id: d.id });
  return deleted.length;
}
