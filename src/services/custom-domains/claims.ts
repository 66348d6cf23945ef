// How long a custom domain claim waits for its ownership proof (docs/custom-domains.md › Claims).

/**
 * Seven days. Past it an unproven claim lapses: its host is no longer refused with 421, adding the name
 * again (by anyone) replaces it, and the cron deletes it. A claim never stops another account from adding
 * and proving the name; the first proof takes it.
 */
export const CLAIM_LAPSE_MS = 7 * 24 * 60 * 60 * 1000;

/** Claims added at or before this moment have lapsed. */
export function lapsedBefore(now = Date.now()): string {
  return new Date(now - CLAIM_LAPSE_MS).toISOString();
}
