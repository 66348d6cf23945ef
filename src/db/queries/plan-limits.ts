// The plan-limit guard statement: makes a counted plan limit exact when creates race (docs/limits.md).
import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../client';
import { planLimitGuards } from '../schema';

/**
 * A statement for the front of a `db.batch([...])` that creates counted things. When `counted` (a
 * `SELECT count(*) …` query) plus `adding` would pass `max`, it inserts into `plan_limit_guards`,
 * whose CHECK refuses every row, so the whole batch fails and rolls back; otherwise it inserts
 * nothing. D1 runs each batch as one transaction on a single writer, so the count it reads includes
 * every create committed before it: concurrent creates stop exactly at the limit. An unlimited plan
 * (`max` = Infinity) gets a statement that never fires, so callers keep one batch shape.
 */
export function planLimitGuardStatement(db: Db, limitName: string, counted: SQLWrapper, max: number, adding: number) {
  const passes = Number.isFinite(max) ? sql`(${counted}) + ${adding} > ${max}` : sql`0`;
  return db.insert(planLimitGuards).select(sql`SELECT ${limitName} WHERE ${passes}`);
}

/** True for the failure `planLimitGuardStatement` causes (the CHECK constraint is named for it). */
export function isPlanLimitGuardFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth += 1) {
    if (e.message.includes('plan_limit_reached')) return true;
  }
  return false;
}
