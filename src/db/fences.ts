// Bulk background statements skip accounts a move has fenced (src/db/schema/account-fences.ts): the
// fence's triggers would abort the whole statement, so one account being moved would stall the cron
// steps and the webhook drain of every other account on its shard. The skipped rows are handled on the
// account's new shard once the move is done.
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

export function notFenced(accountId: SQLiteColumn): SQL {
  return sql`${accountId} NOT IN (SELECT account_id FROM account_fences)`;
}
