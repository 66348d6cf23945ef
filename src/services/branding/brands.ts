// Brand rules (spec › Brand, › Create brand): names trimmed, required, at most 120 characters and unique in
// the account ignoring case (the database's unique index decides races); branding per branding-rules.ts.
import type { Db } from '../../db/client';
import * as brandsDb from '../../db/queries/brands';
import type { Brand, BrandingValues } from '../../db/schema/index';
import { notFound, unprocessable } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { BRANDING_KEYS } from '../../shared/branding-keys';
import { checkBranding } from './branding-rules';

export const MAX_BRAND_NAME = 120;

function nameProblem(name: string): string | null {
  if (!name) return 'name is required.';
  if (name.length > MAX_BRAND_NAME) return `name must be at most ${MAX_BRAND_NAME} characters.`;
  return null;
}

function taken(name: string) {
  return unprocessable(`name "${name}" is already used by another brand of this account.`);
}

function throwIfAny(problems: string[]) {
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
}

export async function createBrand(db: Db, accountId: number, input: { name: string; branding?: Record<string, unknown> }): Promise<Brand> {
  const name = input.name.trim();
  const checked = checkBranding(input.branding ?? {});
  throwIfAny([nameProblem(name), ...checked.problems].filter((p): p is string => p !== null));
  const row = await brandsDb.insertBrand(db, { accountId, name, branding: checked.branding });
  if (!row) throw taken(name);
  return row;
}

/** Branding changes merged into the stored branding: keys sent are set, null or "" removes a key. */
function mergeBranding(current: BrandingValues, changes: Record<string, unknown>): { branding: BrandingValues; problems: string[] } {
  const checked = checkBranding(changes);
  const merged: Record<string, unknown> = { ...current, ...checked.branding };
  for (const [key, value] of Object.entries(changes)) {
    if ((BRANDING_KEYS as readonly string[]).includes(key) && (value === null || value === '')) delete merged[key];
  }
  return { branding: merged as BrandingValues, problems: checked.problems };
}

export async function updateBrand(
  db: Db,
  accountId: number,
  id: number,
  input: { name?: string; branding?: Record<string, unknown> },
): Promise<Brand> {
  const current = await brandsDb.findBrand(db, accountId, id);
  if (!current) throw notFound('Brand');
  const name = input.name === undefined ? undefined : input.name.trim();
  const merged = input.branding === undefined ? undefined : mergeBranding(current.branding, input.branding);
  throwIfAny([name === undefined ? null : nameProblem(name), ...(merged?.problems ?? [])].filter((p): p is string => p !== null));
  // Only the keys sent are written: a concurrent edit of the name is not undone by an edit of the branding.
  // (Two concurrent branding edits: the later one's merge wins, as with any whole-value PUT.)
  const result = await brandsDb.updateBrand(db, accountId, id, {
    ...(name === undefined ? {} : { name }),
    ...(merged === undefined ? {} : { branding: merged.branding }),
    updatedAt: nowIso(),
  });
  if (result === 'not_found') throw notFound('Brand');
  if (result === 'name_taken') throw taken(name ?? current.name);
  return result;
}

/**
 * A `preferences.brand_id` sent on a template or submission must name a brand of this account: anything
 * else (unknown, deleted, another account's) is the same 422, so ids of other accounts reveal nothing.
 */
export async function brandOfAccount(db: Db, accountId: number, brandId: number, where = 'preferences.brand_id'): Promise<Brand> {
  const brand = await brandsDb.findBrand(db, accountId, brandId);
  if (!brand) throw unprocessable(`${where} ${brandId} is not a brand of this account.`);
  return brand;
}

/** Checks a template's or submission's `preferences.brand_id` when one is sent (null clears it: nothing to check). */
export async function checkBrandPreference(
  db: Db,
  accountId: number,
  preferences: { brand_id?: number | null } | undefined,
  where = 'preferences.brand_id',
): Promise<void> {
  const id = preferences?.brand_id;
  if (typeof id === 'number') await brandOfAccount(db, accountId, id, where);
}
