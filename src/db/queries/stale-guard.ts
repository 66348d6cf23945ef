// The stale guard: fails a whole D1 batch when the guarded UPDATE before it changed no row
// (src/services/submissions/change-set.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/**
 * SQLite's error for `json_extract('{}', 'stale-guard')`, which the guard runs when a guarded update
 * changed nothing: an invalid JSON path, named in the message, so no other failure (a malformed JSON
 * value in a row, say) can be mistaken for it.
 */
const STALE = /bad JSON path: '?stale-guard/i;

/**
 * The statement to put right after a guarded UPDATE. SQLite's changes() reports the previous
 * statement's row count; the invalid JSON path raises an error only when it is 0, and an error rolls the
 * whole D1 batch back.
 */
export function staleGuardStatement(db: Db) {
  return db.run(sql`SELECT CASE WHEN changes() = 0 THEN json_extract('{}', 'stale-guard') ELSE 1 END`);
}

/** True for the failure `staleGuardStatement` causes. */
export function isStaleGuardFailure(error: unknown): boolean {
  return error instanceof Error && STALE.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`);
}
