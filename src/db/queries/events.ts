// The event outbox: the insert every writer puts in its own batch, and the reads and marks of the webhook
// fan-out (services/webhooks/fan-out.ts).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { events, submissions, webhookDeliveries, webhooks, type EventRow, type Webhook } from '../schema';

export type OutboxRow = Pick<EventRow, 'accountId' | 'event' | 'data'> & {
  /** The submission whose sealed documents `data` links to: the event is held while it is unsealed. */
  awaitsSealOf?: number;
};

/**
 * The outbox insert, for the caller's own batch. Whether to hold is decided by the database inside that
 * batch (the submission's `sealed_at` as it commits), so an event written as the seal commits is either
 * released by it (releaseHeldEventsStatement) or never held.
 */
export function outboxInsertStatement(db: Db, row: OutboxRow) {
  const held =
    row.awaitsSealOf === undefined
      ? null
      : sql`(SELECT ${submissions.id} FROM ${submissions} WHERE ${submissions.id} = ${row.awaitsSealOf} AND ${submissions.sealedAt} IS NULL)`;
  return db.insert(events).values({ accountId: row.accountId, event: row.event, data: row.data, heldForSeal: held });
}

/**
 * The insert of an event fanned out in the same batch (newEventDeliveriesStatement right after it): stored
 * already dispatched, at `at`, which is also its `created_at`.
 */
export function dispatchedEventInsertStatement(db: Db, row: Omit<OutboxRow, 'awaitsSealOf'>, at: string) {
  return db
    .insert(events)
    .values({ accountId: row.accountId, event: row.event, data: row.data, createdAt: at, dispatchedAt: at })
    .returning();
}

const dispatchable = and(isNull(events.dispatchedAt), isNull(events.heldForSeal), notFenced(events.accountId));

/**
 * The oldest events not yet fanned out (leaving out those held until their submission's seal) and the
 * enabled endpoints of their accounts, read in one D1 batch, so both come from the same snapshot.
 */
export async function undispatchedWithEndpoints(db: Db, limit: number): Promise<{ events: EventRow[]; endpoints: Webhook[] }> {
  const oldest = db
    .select({ id: events.id, accountId: events.accountId })
    .from(events)
    .where(dispatchable)
    .orderBy(asc(events.id))
    .limit(limit)
    .as('oldest');
  const [rows, endpoints] = await db.batch([
    db.select().from(events).where(dispatchable).orderBy(asc(events.id)).limit(limit),
    db
      .select()
      .from(webhooks)
      .where(
        and(
          eq(webhooks.enabled, true),
          isNull(webhooks.deletedAt),
          sql`${webhooks.accountId} IN (SELECT ${oldest.accountId} FROM ${oldest})`,
        ),
      ),
  ]);
  return { events: rows, endpoints };
}

/**
 * Releases the events held until this submission's documents were sealed (outboxInsert's `awaitsSealOf`);
 * meant for the batch that marks the submission sealed, so they are released exactly when it is.
 */
export function releaseHeldEventsStatement(db: Db, submissionId: number) {
  return db.update(events).set({ heldForSeal: null }).where(eq(events.heldForSeal, submissionId));
}

/** Marks events fanned out; meant for the same batch as their delivery rows. */
export function markDispatched(db: Db, ids: number[], at: string) {
  return db
    .update(events)
    .set({ dispatchedAt: at })
    .where(and(inList(events.id, ids), isNull(events.dispatchedAt)));
}

/**
 * Retention: deletes up to `limit` events dispatched before `before` that no delivery row still names
 * (deliveries are pruned first; a redelivery made later keeps its event). Undispatched events are never
 * touched. Ids are chosen by a subquery, so the statement binds two parameters whatever `limit` is.
 */
export async function pruneDispatchedEvents(db: Db, before: string, limit: number): Promise<number> {
  const d = webhookDeliveries;
  const doomed = db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        sql`${events.dispatchedAt} IS NOT NULL`,
        sql`${events.dispatchedAt} < ${before}`,
        sql`NOT EXISTS (SELECT 1 FROM ${d} WHERE ${d.eventId} = ${events.id})`,
        notFenced(events.accountId),
      ),
    )
    .orderBy(asc(events.dispatchedAt))
    .limit(limit)
    .as('doomed');
  const deleted = await db.delete(events).where(sql`${events.id} IN (SELECT ${doomed.id} FROM ${doomed})`).returning({ id: events.id });
  return deleted.length;
}
