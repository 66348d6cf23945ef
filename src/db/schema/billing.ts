// Plan enforcement and the payment processor: the plan-limit guard and the Stripe events applied.
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { now } from './columns';
import { accounts } from './accounts';

/**
 * Never holds a row. `planLimitGuardStatement` (src/db/queries/plan-limits.ts) inserts into it only
 * when a counted plan limit would be passed, and the CHECK refuses every insert, so that statement
 * aborts the D1 batch it is in — the create in the same batch is rolled back. SQLite has no RAISE
 * outside triggers; this is how a plain statement fails on a condition.
 */
export const planLimitGuards = sqliteTable(
  'plan_limit_guards',
  {
    /** Which limit would have been passed, e.g. `templates`. */
    limitName: text('limit_name').notNull(),
  },
  () => [check('plan_limit_reached', sql`0`)],
);

/** Stripe webhook events already applied, by Stripe's event id: a redelivery changes nothing. */
export const stripeEvents = sqliteTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    accountId: integer('account_id').references(() => accounts.id),
    /** The subscription the event is about, so a checkout delivered after its subscription's deletion is known dead. */
    subscriptionId: text('subscription_id'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('stripe_events_subscription').on(t.subscriptionId)],
);
