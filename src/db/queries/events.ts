// Reads and marks outbox rows for the webhook fan-out (the writes are outboxInsert in services/events).
import { and, asc, isNull } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { events, type EventRow } from '../schema';

/** The oldest events not yet fanned out. */
export async function undispatchedEvents(db: Db, limit: number): Promise<EventRow[]> {
  return db.select().from(events).where(isNull(events.dispatchedAt)).orderBy(asc(events.id)).limit(limit);
}

/** Marks events fanned out; meant for the same batch as their delivery rows. */
export function markDispatched(db: Db, ids: number[], at: string) {
  return db
    .update(events)
    .set({ dispatchedAt: at })
    .where(and(inList(events.id, ids), isNull(events.dispatchedAt)));
}
