// Account rows.
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, type Account } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';
import { nowIso } from '../../lib/time';

export type AccountChanges = Partial<Pick<Account, 'name' | 'locale' | 'timezone' | 'mfaEnforced' | 'plan' | 'suspendedAt'>>;

export async function getAccount(db: Db, id: number): Promise<Account | undefined> {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export async function updateAccount(db: Db, id: number, changes: AccountChanges): Promise<Account> {
  const [row] = await db
    .update(accounts)
    .set({ ...changes, updatedAt: nowIso() })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

export async function insertAccount(
  db: Db,
  values: Pick<Account, 'name' | 'plan'> & Partial<Pick<Account, 'locale' | 'timezone'>>,
): Promise<Account> {
  const [row] = await db.insert(accounts).values(values).returning();
  return row;
}

export type AccountFilter = { plan?: string; suspended?: boolean };

/** Every account, for the partner control plane (the one place that reads across accounts). */
export async function listAccounts(db: Db, filter: AccountFilter, window: CursorWindow): Promise<Account[]> {
  const { where, orderBy } = cursorConditions(accounts.id, window);
  return db
    .select()
    .from(accounts)
    .where(
      and(
        filter.plan === undefined ? undefined : eq(accounts.plan, filter.plan),
        filter.suspended === undefined ? undefined : filter.suspended ? isNotNull(accounts.suspendedAt) : isNull(accounts.suspendedAt),
        ...where,
      ),
    )
    .orderBy(orderBy)
    .limit(window.take);
}
