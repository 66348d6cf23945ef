// Retention periods (issue 33 › 5): how long after completion a submission's documents and values are
// kept. A template's `preferences.retention_days` overrides the account's `documents_days`; null keeps them.

/** The longest period a setting may name (100 years); any longer is the same as keeping them (null). */
export const MAX_RETENTION_DAYS = 36_500;
const DAY_MS = 86_400_000;

/** The template's override when it names one, else the account's setting (null: kept). */
export function effectiveRetentionDays(templateDays: unknown, accountDays: number | null | undefined): number | null {
  if (typeof templateDays === 'number' && Number.isInteger(templateDays) && templateDays >= 1) return templateDays;
  return accountDays ?? null;
}

/** When a submission completed at `completedAt` is erased under `days` (null: never). */
export function purgeAtOf(completedAt: string, days: number | null): string | null {
  return days === null ? null : new Date(Date.parse(completedAt) + days * DAY_MS).toISOString();
}
