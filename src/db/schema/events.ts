// The event outbox: every webhook-worthy change is written here in the same D1 batch as the change
// itself, and the webhook dispatcher delivers from it (at-least-once; see docs/webhooks.md).
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** One of the event names (src/lib/events.ts), e.g. `template.created`. */
    event: text('event').notNull(),
    /** The `data` object of the webhook body, exactly as it will be sent. */
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** When the dispatcher fanned this event out to the subscribed endpoints; null until then. */
    dispatchedAt: text('dispatched_at'),
    /**
     * The submission whose sealed documents this event's payload links to, while they do not exist yet:
     * the fan-out skips the event until the batch that marks the submission sealed clears it
     * (docs/webhooks.md › Events and documents). Null for every other event.
     */
    heldForSeal: integer('held_for_seal'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    index('events_account').on(t.accountId, t.id),
    index('events_undispatched').on(t.dispatchedAt, t.id),
    index('events_held_for_seal').on(t.heldForSeal),
  ],
);

export type EventRow = typeof events.$inferSelect;
