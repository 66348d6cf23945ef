// Recognising D1 constraint failures, so a lost race answers 422 (or a fenced write 409) instead of 500.

/** The messages of an error and its causes (drizzle wraps D1's error in its own). */
function messagesOf(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(' ');
}

export function isUniqueViolation(err: unknown): boolean {
  return messagesOf(err).includes('UNIQUE constraint failed');
}

/**
 * A write refused by an account move's fence: the triggers of migration 0018 abort every write of a
 * fenced account's rows with `account_moving` (src/db/schema/account-fences.ts).
 */
export const ACCOUNT_MOVING = 'account_moving';

export function isAccountMoving(err: unknown): boolean {
  return messagesOf(err).includes(ACCOUNT_MOVING);
}
