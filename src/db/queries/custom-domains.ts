// Custom domain rows (control database). Every query but the Host lookups is scoped by account.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { cursorConditions } from '../cursor';
import { customDomains, type CustomDomain, type CustomDomainStatus } from '../schema';
import type { CursorWindow } from '../../lib/pagination';

export type NewCustomDomain = Pick<CustomDomain, 'accountId' | 'hostname' | 'websiteUrl' | 'branding' | 'verificationToken'>;
export type CustomDomainChanges = Partial<Pick<CustomDomain, 'websiteUrl' | 'branding' | 'status' | 'cloudflareHostnameId' | 'certificateStatus' | 'verifiedAt'>>;

const mine = (accountId: number, id: number) => and(eq(customDomains.accountId, accountId), eq(customDomains.id, id));

/**
 * Inserts the row, and when it is the default, clears the account's other default in the same batch
 * (D1 runs a batch as one transaction; the partial unique index holds one default whatever races).
 */
export async function insertCustomDomain(db: Db, values: NewCustomDomain, isDefault: boolean): Promise<CustomDomain> {
  if (!isDefault) {
    const [row] = await db.insert(customDomains).values(values).returning();
    return row;
  }
  const [, inserted] = await db.batch([
    db.update(customDomains).set({ isDefault: false }).where(and(eq(customDomains.accountId, values.accountId), eq(customDomains.isDefault, true))),
    db.insert(customDomains).values({ ...values, isDefault: true }).returning(),
  ]);
  return inserted[0];
}

export async function getCustomDomain(db: Db, accountId: number, id: number): Promise<CustomDomain | undefined> {
  return db.select().from(customDomains).where(mine(accountId, id)).get();
}

export async function listCustomDomains(db: Db, accountId: number, window: CursorWindow): Promise<CustomDomain[]> {
  const { where, orderBy } = cursorConditions(customDomains.id, window);
  return db
    .select()
    .from(customDomains)
    .where(and(eq(customDomains.accountId, accountId), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

/** The domain a request's Host names, whatever its account (one lookup by the unique index). */
export async function customDomainByHostname(db: Db, hostname: string): Promise<CustomDomain | undefined> {
  return db.select().from(customDomains).where(eq(customDomains.hostname, hostname)).get();
}

export type ActiveDomain = Pick<CustomDomain, 'id' | 'hostname' | 'isDefault' | 'branding'>;

/** The account's active domains: the ones links may use, with the branding emails on them carry. */
export async function activeDomainsOf(db: Db, accountId: number): Promise<ActiveDomain[]> {
  return db
    .select({ id: customDomains.id, hostname: customDomains.hostname, isDefault: customDomains.isDefault, branding: customDomains.branding })
    .from(customDomains)
    .where(and(eq(customDomains.accountId, accountId), eq(customDomains.status, 'active')));
}

/**
 * Applies `changes`, only while the row still has `expectedStatus` when one is given (a concurrent
 * verify or delete wins, and this one finds nothing). `isDefault: true` clears the account's other
 * default in the same batch.
 */
export async function updateCustomDomain(
  db: Db,
  accountId: number,
  id: number,
  changes: CustomDomainChanges & { isDefault?: boolean },
  at: string,
  expectedStatus?: CustomDomainStatus,
): Promise<CustomDomain | undefined> {
  const guard = expectedStatus ? and(mine(accountId, id), eq(customDomains.status, expectedStatus)) : mine(accountId, id);
  const update = db
    .update(customDomains)
    .set({ ...changes, updatedAt: at })
    .where(guard)
    .returning();
  if (changes.isDefault !== true) return (await update)[0];
  const [, rows] = await db.batch([
    db
      .update(customDomains)
      .set({ isDefault: false, updatedAt: at })
      .where(and(eq(customDomains.accountId, accountId), eq(customDomains.isDefault, true), ne(customDomains.id, id))),
    update,
  ]);
  return rows[0];
}

/** Records the Cloudflare hostname only if no other verify recorded one first; false when it lost. */
export async function claimCloudflareHostname(db: Db, accountId: number, id: number, changes: CustomDomainChanges, at: string): Promise<CustomDomain | undefined> {
  const [row] = await db
    .update(customDomains)
    .set({ ...changes, updatedAt: at })
    .where(and(mine(accountId, id), isNull(customDomains.cloudflareHostnameId)))
    .returning();
  return row;
}

export async function deleteCustomDomain(db: Db, accountId: number, id: number): Promise<CustomDomain | undefined> {
  const [row] = await db.delete(customDomains).where(mine(accountId, id)).returning();
  return row;
}

/** Active domains whose certificate is not issued yet, oldest change first: the cron's bounded batch. */
export async function domainsAwaitingCertificate(db: Db, limit: number): Promise<CustomDomain[]> {
  return db
    .select()
    .from(customDomains)
    .where(
      and(
        eq(customDomains.status, 'active'),
        sql`${customDomains.cloudflareHostnameId} is not null`,
        sql`coalesce(${customDomains.certificateStatus}, '') not in ('active', 'deleted')`,
      ),
    )
    .orderBy(customDomains.updatedAt)
    .limit(limit);
}

export async function setCertificateStatus(db: Db, id: number, certificateStatus: string, at: string): Promise<void> {
  await db.update(customDomains).set({ certificateStatus, updatedAt: at }).where(eq(customDomains.id, id));
}

