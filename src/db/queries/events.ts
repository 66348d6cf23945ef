// Reads and marks outbox rows for the webhook fan-out (the writes are outboxInsert in services/events).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { events, webhookDeliveries, type EventRow } from '../schema';

/** The oldest events not yet fanned out, leaving out those held until their submission's seal. */
export async function undispatchedEvents(db: Db, limit: number): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(and(isNull(events.dispatchedAt), isNull(events.heldForSeal), notFenced(events.accountId)))
    .orderBy(asc(events.id))
    .limit(limit);
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
