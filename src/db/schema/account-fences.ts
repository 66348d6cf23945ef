// Tenant shards: accounts whose writes this shard refuses while (and after) they move to another shard
// (src/services/account-move.ts; docs/architecture.md › Moving an account).
import { sqliteTable, integer, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

/**
 * One row fences one account on this shard: the triggers of migration 0018 abort every INSERT, UPDATE
 * and DELETE of that account's rows in any tenant table with `account_moving`. `reason` is `moving`
 * while the copy runs and the source still holds the rows, `moved` once they are gone from here (the
 * fence stays, so a request that read the old pointer fails instead of writing where nobody reads).
 */
export const accountFences = sqliteTable('account_fences', {
  accountId: integer('account_id').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: text('created_at').notNull().default(now),
});

export type AccountFence = typeof accountFences.$inferSelect;
