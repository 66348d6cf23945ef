// Plan limits on creating things (spec › Limits: "plan limit reached" is a 403 with `upgrade_url`).
import type { Db, SubQuery } from '../db/client';
import { isPlanLimitGuardFailure, planLimitGuardStatement } from '../db/queries/plan-limits';
import { storedBytes, storedBytesQuery } from '../db/queries/storage';
import type { Account } from '../db/schema/index';
import { ApiError } from '../lib/errors';
import { planOf, type Plan } from '../lib/plans';

/** The counted limits of src/lib/plans.ts; storage is checked in bytes by `assertStorageAvailable`. */
export type CountedLimit = Exclude<keyof Plan['limits'], 'storageBytes'>;

const WHAT: Record<CountedLimit, { one: string; many: string; remedy: string }> = {
  accessTokens: { one: 'active API token', many: 'active API tokens', remedy: 'revoke one or upgrade' },
  teamMembers: { one: 'team member', many: 'team members', remedy: 'remove one or upgrade' },
  templates: { one: 'active template', many: 'active templates', remedy: 'archive one or upgrade' },
  submissionsPerMonth: { one: 'submission a month', many: 'submissions a month', remedy: 'wait for next month or upgrade' },
};

/**
 * The one shape of every refusal a plan causes — a counted limit, storage, or a feature the plan lacks:
 * 403 `{error, code: "plan_limit_reached", upgrade_url}`.
 */
export function planLimitError(message: string, upgradeUrl: string): ApiError {
  return new ApiError(403, message, { upgrade_url: upgradeUrl, code: 'plan_limit_reached' });
}

/** The 403 for a counted limit: `Your free plan allows 1 team member; remove one or upgrade.` */
export function planLimitReached(account: Pick<Account, 'plan'>, limit: CountedLimit, upgradeUrl: string): ApiError {
  const max = planOf(account.plan).limits[limit];
  const what = WHAT[limit];
  return planLimitError(
    `Your ${planOf(account.plan).name} plan allows ${max} ${max === 1 ? what.one : what.many}; ${what.remedy}.`,
    upgradeUrl,
  );
}

/**
 * Throws the plan-limit 403 when `current + adding` would pass the account's limit: an early, friendly
 * refusal from a count read in this request. On its own it is check-then-insert; the exact
 * enforcement is `planLimitGuard` in the batch that writes (docs/limits.md › Plans).
 */
export function assertWithinPlanLimit(
  account: Pick<Account, 'plan'>,
  limit: CountedLimit,
  current: number,
  upgradeUrl: string,
  adding = 1,
): void {
  const max = planOf(account.plan).limits[limit];
  if (current + adding <= max) return;
  throw planLimitReached(account, limit, upgradeUrl);
}

/**
 * Exact counted limits under concurrency. Put the returned statement first in the `db.batch([...])`
 * that creates the `adding` things, where `counted` is an unexecuted `SELECT count(*)` of what the
 * limit counts (e.g. `activeTemplatesCountQuery(db, accountId)`), and run the batch through
 * `refusingPastPlanLimit`: past the limit the batch writes nothing and the caller gets the 403.
 *
 *   await refusingPastPlanLimit(
 *     () => db.batch([planLimitGuard(db, account, 'submissionsPerMonth', monthCount, n), insertSubmission, …]),
 *     () => planLimitReached(account, 'submissionsPerMonth', upgradeUrl),
 *   );
 */
export function planLimitGuard(db: Db, account: Pick<Account, 'plan'>, limit: CountedLimit, counted: SubQuery, adding = 1) {
  return planLimitGuardStatement(db, limit, counted, planOf(account.plan).limits[limit], adding);
}

/** Runs a write that contains a `planLimitGuard`; turns the guard's failure into `refusal()`. */
export async function refusingPastPlanLimit<T>(write: () => Promise<T>, refusal: () => ApiError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isPlanLimitGuardFailure(err)) throw refusal();
    throw err;
  }
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The 403 for storage: how much the plan includes, how much is in use, what the upload needs. */
export function storageLimitReached(account: Pick<Account, 'plan'>, usedBytes: number, addingBytes: number, upgradeUrl: string): ApiError {
  const max = planOf(account.plan).limits.storageBytes;
  return planLimitError(
    `Your ${planOf(account.plan).name} plan includes ${formatBytes(max)} of storage and ${formatBytes(usedBytes)} is in use; ` +
      `this upload needs ${formatBytes(addingBytes)}. Delete documents or upgrade.`,
    upgradeUrl,
  );
}

/** Throws the plan-limit 403 when storing `addingBytes` more would pass the account's storage. */
export function assertStorageAvailable(account: Pick<Account, 'plan'>, usedBytes: number, addingBytes: number, upgradeUrl: string): void {
  if (usedBytes + addingBytes <= planOf(account.plan).limits.storageBytes) return;
  throw storageLimitReached(account, usedBytes, addingBytes, upgradeUrl);
}

/**
 * The early storage check: reads what the account stores now (src/db/queries/storage.ts) and throws
 * the plan-limit 403 when `addingBytes` more would pass the plan's storage. Like `assertWithinPlanLimit`
 * it is check-then-write; `storageLimitGuard` in the writing batch makes it exact.
 */
export async function assertStorageFor(
  db: Db,
  account: Pick<Account, 'id' | 'plan'>,
  addingBytes: number,
  upgradeUrl: string,
): Promise<void> {
  if (!Number.isFinite(planOf(account.plan).limits.storageBytes)) return;
  assertStorageAvailable(account, await storedBytes(db, account.id), addingBytes, upgradeUrl);
}

/**
 * First statement of a batch that records `addingBytes` more stored bytes: aborts the batch (with the
 * `plan_limit_reached` failure `refusingPastPlanLimit` recognises) when the account's stored bytes,
 * counted inside the batch, plus `addingBytes` would pass the plan's storage. Concurrent uploads then
 * stop exactly at the limit, as `planLimitGuard` does for counted limits.
 */
export function storageLimitGuard(db: Db, account: Pick<Account, 'id' | 'plan'>, addingBytes: number) {
  return planLimitGuardStatement(db, 'storageBytes', storedBytesQuery(account.id), planOf(account.plan).limits.storageBytes, addingBytes);
}

/** Start of the calendar month (UTC) that monthly limits count from, as stored ISO text. */
export function monthStartIso(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}
