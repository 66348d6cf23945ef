// Writes events to the outbox. Callers put the returned statement in the same `db.batch([...])` as
// the change it describes, so a change and its event are stored together or not at all. `data` is capped
// on the way in (src/lib/event-payload-cap.ts): large values are replaced by their SHA-256 and size.
import type { Db } from '../../db/client';
import { events } from '../../db/schema/index';
import type { EventName } from '../../lib/events';
import { capEventData } from '../../lib/event-payload-cap';

export type OutboxEvent = {
  accountId: number;
  event: EventName;
  /** The webhook body's `data` object (spec › Events › Payload shapes). */
  data: Record<string, unknown>;
};

export function outboxInsert(db: Db, event: OutboxEvent) {
  return db.insert(events).values({ accountId: event.accountId, event: event.event, data: capEventData(event.data) });
}
