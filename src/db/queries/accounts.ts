// Account rows.
import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, type Account } from '../schema';
import { nowIso } from '../../lib/time';

export type AccountChanges = Partial<Pick<Account, 'name' | 'locale' | 'timezone' | 'mfaEnforced'>>;

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
