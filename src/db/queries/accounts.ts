// Account rows.
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, users, type Account, type User } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';
import { nowIso } from '../../lib/time';

export type AccountChanges = Partial<
  Pick<
    Account,
    | 'name'
    | 'locale'
    | 'timezone'
    | 'mfaEnforced'
    | 'plan'
    | 'suspendedAt'
    | 'documentLinksEnabled'
    | 'documentLinkExpiryDays'
    | 'embedOrigins'
    | 'reminderSchedule'
    | 'documentsRetentionDays'
  >
>;

export async function getAccount(db: Db, id: number): Promise<Account | undefined> {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export async function updateAccount(db: Db, id: number, changes: AccountChanges): Promise<Account> {
  return setAccountColumns(db, id, changes);
}

/** The one update of an account's own columns; the exported functions say which columns each caller may set. */
async function setAccountColumns(db: Db, id: number, values: Partial<Omit<Account, 'id' | 'updatedAt'>>): Promise<Account> {
  const [row] = await db
    .update(accounts)
    .set({ ...values, updatedAt: nowIso() })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

/** Stores the account's signature level, and its provider label and sealed QES credentials when given. */
export async function setSignatureLevel(
  db: Db,
  id: number,
  values: Pick<Account, 'signatureLevel'> & Partial<Pick<Account, 'signatureProvider' | 'qesProviderCredentials'>>,
): Promise<Account> {
  return setAccountColumns(db, id, values);
}

/** Stores (or, with nulls, removes) the account's sealed Stripe credentials for payment fields. */
export async function setPaymentCredentials(
  db: Db,
  id: number,
  values: Pick<Account, 'paymentsStripeSecretKey' | 'paymentsStripeWebhookSecret' | 'paymentsStripeKeyLast4'>,
): Promise<Account> {
  return setAccountColumns(db, id, values);
}

export async function insertAccount(
  db: Db,
  values: Pick<Account, 'name' | 'plan' | 'shard'> & Partial<Pick<Account, 'locale' | 'timezone'>>,
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

export async function setHasWebhooks(db: Db, id: number, hasWebhooks: boolean): Promise<void> {
  await db
    .update(accounts)
    .set({ hasWebhooks })
    .where(and(eq(accounts.id, id), sql`${accounts.hasWebhooks} <> ${hasWebhooks ? 1 : 0}`));
}

/** How many accounts each shard holds (shards with none are absent). */
export async function countAccountsByShard(db: Db): Promise<Map<number, number>> {
  const rows = await db.select({ shard: accounts.shard, count: count() }).from(accounts).groupBy(accounts.shard);
  return new Map(rows.map((r) => [r.shard, r.count]));
}

/**
 * Revoke-all for public document links: one increment in SQL, so two revokes racing both count and a
 * link minted before either one is stopped (docs/document-links.md).
 */
export async function bumpDocumentLinkGeneration(db: Db, id: number): Promise<Account> {
  const [row] = await db
    .update(accounts)
    .set({ documentLinkGeneration: sql`${accounts.documentLinkGeneration} + 1`, updatedAt: nowIso() })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

/**
 * Stores the account's first embed key unless one is there already (two first mints racing keep one);
 * returns the key the account has now.
 */
export async function setEmbedKeyIfMissing(db: Db, id: number, sealedKey: string): Promise<string> {
  const [row] = await db
    .update(accounts)
    .set({ embedKey: sealedKey })
    .where(and(eq(accounts.id, id), isNull(accounts.embedKey)))
    .returning({ embedKey: accounts.embedKey });
  if (row?.embedKey) return row.embedKey;
  const current = await db.select({ embedKey: accounts.embedKey }).from(accounts).where(eq(accounts.id, id)).get();
  if (!current?.embedKey) throw new Error(`Account ${id} has no embed key after storing one.`);
  return current.embedKey;
}

/**
 * Rotates the embed key in one statement: the current key becomes the previous one (still verifying
 * until `previousUntil`), the new one signs from now on. SQLite evaluates every SET from the old row, so
 * two rotations racing both shift and neither loses the key the other just made current.
 */
export async function rotateEmbedKey(db: Db, id: number, sealedKey: string, previousUntil: string): Promise<Account> {
  const [row] = await db
    .update(accounts)
    .set({ embedKeyPrevious: sql`${accounts.embedKey}`, embedKeyPreviousUntil: previousUntil, embedKey: sealedKey, updatedAt: nowIso() })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

/** An embed token's account and the user who minted it, in one control query (docs/embedding.md). */
export async function findEmbedPrincipal(db: Db, accountId: number, userId: number): Promise<{ account: Account; user: User } | undefined> {
  return db
    .select({ account: accounts, user: users })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)))
    .get();
}
