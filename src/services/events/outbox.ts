// Writes events to the outbox. Callers put the returned statement in the same `db.batch([...])` as
// the change it describes, so a change and its event are stored together or not at all. `data` is capped
// on the way in (src/lib/event-payload-cap.ts): large values are replaced by their SHA-256 and size.
//
// Events and documents (docs/webhooks.md › Events and documents): an event whose payload links to a
// submission's signed documents names that submission in `awaitsSealOf`. While the submission is not
// sealed, the row is stored held (`held_for_seal`), and the fan-out skips it; the batch that marks the
// submission sealed releases it (releaseHeldEventsStatement, db/queries/events.ts). Whether to hold is decided by the database
// inside the writing batch, so an event written as the seal commits is either released by it or never held.
import type { Db } from '../../db/client';
import { dispatchedEventInsertStatement, outboxInsertStatement } from '../../db/queries/events';
import type { EventName } from '../../lib/events';
import { capEventData } from '../../lib/event-payload-cap';

export type OutboxEvent = {
  accountId: number;
  event: EventName;
  /** The webhook body's `data` object (spec › Events › Payload shapes). */
  data: Record<string, unknown>;
  /** The submission whose sealed documents `data` links to: delivered only once they exist. */
  awaitsSealOf?: number;
};

export function outboxInsert(db: Db, event: OutboxEvent) {
  return outboxInsertStatement(db, { ...event, data: capEventData(event.data) });
}

/**
 * The insert of an event whose deliveries the same batch writes (services/webhooks/immediate.ts): stored
 * already dispatched at `at`, its `created_at`. Returns the statement and the data as stored (capped).
 */
export function dispatchedOutboxInsert(db: Db, event: Omit<OutboxEvent, 'awaitsSealOf'>, at: string) {
  const data = capEventData(event.data);
  return { statement: dispatchedEventInsertStatement(db, { ...event, data }, at), data };
}
