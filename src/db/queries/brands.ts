// Named brands of an account (spec › Brand). Every query is scoped by account: another account's brand is not found.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { inList } from '../bound-parameters';
import { cursorConditions } from '../cursor';
import { isUniqueViolation } from '../errors';
import { brands, type Brand, type BrandingValues } from '../schema';
import type { CursorWindow } from '../../lib/pagination';

export async function listBrands(db: Db, accountId: number, window: CursorWindow): Promise<Brand[]> {
  const { where, orderBy } = cursorConditions(brands.id, window);
  return db
    .select()
    .from(brands)
    .where(and(eq(brands.accountId, accountId), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

export async function findBrand(db: Db, accountId: number, id: number): Promise<Brand | undefined> {
  return db
    .select()
    .from(brands)
    .where(and(eq(brands.accountId, accountId), eq(brands.id, id)))
    .get();
}

/** Every brand of the account by name (id and name only): the choices a template editor offers. */
export async function brandChoicesOf(db: Db, accountId: number): Promise<Pick<Brand, 'id' | 'name'>[]> {
  return db
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .where(eq(brands.accountId, accountId))
    .orderBy(asc(brands.name), asc(brands.id));
}

/** The branding of each of these brands of the account, by id (ids of no brand of the account are absent). */
export async function brandingsOf(db: Db, accountId: number, ids: readonly number[]): Promise<Map<number, BrandingValues>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: brands.id, branding: brands.branding })
    .from(brands)
    .where(and(eq(brands.accountId, accountId), inList(brands.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r.branding]));
}

/**
 * Inserts unless the account already has a brand of that name ignoring case: then undefined. The unique
 * expression index decides, so of two concurrent creates exactly one wins.
 */
export async function insertBrand(db: Db, values: Pick<Brand, 'accountId' | 'name' | 'branding'>): Promise<Brand | undefined> {
  const [row] = await db.insert(brands).values(values).onConflictDoNothing().returning();
  return row;
}

export type BrandUpdate = { name?: string; branding?: BrandingValues; updatedAt: string };

/** 'not_found', 'name_taken' (another brand of the account has the name, ignoring case), or the updated row. */
export async function updateBrand(db: Db, accountId: number, id: number, values: BrandUpdate): Promise<Brand | 'not_found' | 'name_taken'> {
  try {
    const [row] = await db
      .update(brands)
      .set(values)
      .where(and(eq(brands.accountId, accountId), eq(brands.id, id)))
      .returning();
    return row ?? 'not_found';
  } catch (err) {
    if (isUniqueViolation(err)) return 'name_taken';
    throw err;
  }
}

export async function deleteBrand(db: Db, accountId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(brands)
    .where(and(eq(brands.accountId, accountId), eq(brands.id, id)))
    .returning({ id: brands.id });
  return rows.length > 0;
}
