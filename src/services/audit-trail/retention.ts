// How long the audit trail is kept (spec › Limits: audit retention 7 years), counted in whole UTC months
// as the archive is stored.
export const AUDIT_RETENTION_YEARS = 7;

/**
 * The oldest month (`YYYY-MM`) still within retention at `now`: every month before it ended more than
 * 7 years ago. Archived parts of earlier months are deleted and never read.
 */
export function firstRetainedMonth(now: number): string {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear() - AUDIT_RETENTION_YEARS, date.getUTCMonth(), 1)).toISOString().slice(0, 7);
}
