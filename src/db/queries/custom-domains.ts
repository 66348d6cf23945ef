// Custom domain rows (control database). Every query but the Host lookups is scoped by account.
import { and, asc, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { cursorConditions } from '../cursor';
import { customDomains, type CustomDomain, type CustomDomainStatus } from '../schema';
import type { CursorWindow } from '../../lib/pagination';

export type NewCustomDomain = Pick<CustomDomain, 'accountId' | 'hostname' | 'websiteUrl' | 'branding' | 'verificationToken'>;
export type CustomDomainChanges = Partial<
  Pick<CustomDomain, 'websiteUrl' | 'branding' | 'status' | 'cloudflareHostnameId' | 'certificateStatus' | 'verifiedAt'>
>;

const mine = (accountId: number, id: number) => and(eq(customDomains.accountId, accountId), eq(customDomains.id, id));

/** A claim nobody proved (status pending) that was added at or before `lapsedBefore`. */
const lapsedClaim = (lapsedBefore: string) => and(eq(customDomains.status, 'pending'), lte(customDomains.createdAt, lapsedBefore));

/**
 * Inserts the row as a claim, in one batch (one D1 transaction) with: the deletion of lapsed claims of
 * the same host name (any account's, this one's included), and when it is the default, clearing the
 * account's other default (the partial unique index holds one default whatever races).
 */
export async function insertCustomDomain(db: Db, values: NewCustomDomain, isDefault: boolean, lapsedBefore: string): Promise<CustomDomain> {
  const clearLapsed = db.delete(customDomains).where(and(eq(customDomains.hostname, values.hostname), lapsedClaim(lapsedBefore)));
  if (!isDefault) {
    const [, inserted] = await db.batch([clearLapsed, db.insert(customDomains).values(values).returning()]);
    return inserted[0];
  }
  const [, , inserted] = await db.batch([
    clearLapsed,
    db
      .update(customDomains)
      .set({ isDefault: false })
      .where(and(eq(customDomains.accountId, values.accountId), eq(customDomains.isDefault, true))),
    db
      .insert(customDomains)
      .values({ ...values, isDefault: true })
      .returning(),
  ]);
  return inserted[0];
}

/** The domain whose ownership some account proved (any status but pending): at most one per host name. */
export async function provenDomainByHostname(db: Db, hostname: string): Promise<CustomDomain | undefined> {
  return db
    .select()
    .from(customDomains)
    .where(and(eq(customDomains.hostname, hostname), ne(customDomains.status, 'pending')))
    .get();
}

/** This account's row for the host name, whatever its status. */
export async function accountDomainByHostname(db: Db, accountId: number, hostname: string): Promise<CustomDomain | undefined> {
  return db
    .select()
    .from(customDomains)
    .where(and(eq(customDomains.accountId, accountId), eq(customDomains.hostname, hostname)))
    .get();
}

/**
 * Records proven ownership: the row becomes `verified` while it is still pending, and in the same batch
 * every other account's unproven claim of the host name is deleted (the proof takes the name from them).
 * The partial unique index refuses the update when another account proved the name first. Returns the
 * row (undefined when a concurrent verify or delete got there first) and the claims removed.
 */
export async function proveDomainOwnership(
  db: Db,
  domain: Pick<CustomDomain, 'id' | 'accountId' | 'hostname'>,
  at: string,
): Promise<{ domain: CustomDomain | undefined; displaced: number }> {
  const [removed, updated] = await db.batch([
    db
      .delete(customDomains)
      .where(
        and(
          eq(customDomains.hostname, domain.hostname),
          eq(customDomains.status, 'pending'),
          ne(customDomains.accountId, domain.accountId),
        ),
      )
      .returning({ id: customDomains.id }),
    db
      .update(customDomains)
      .set({ status: 'verified', verifiedAt: at, updatedAt: at })
      .where(and(mine(domain.accountId, domain.id), eq(customDomains.status, 'pending')))
      .returning(),
  ]);
  return { domain: updated[0], displaced: removed.length };
}

/** Deletes at most `limit` claims that lapsed (the cron); returns their host names. */
export async function deleteLapsedClaims(db: Db, lapsedBefore: string, limit: number): Promise<string[]> {
  const lapsed = await db
    .select({ id: customDomains.id })
    .from(customDomains)
    .where(lapsedClaim(lapsedBefore))
    .orderBy(asc(customDomains.createdAt))
    .limit(limit);
  if (lapsed.length === 0) return [];
  const rows = await db
    .delete(customDomains)
    .where(
      and(
        inList(
          customDomains.id,
          lapsed.map((row) => row.id),
        ),
        lapsedClaim(lapsedBefore),
      ),
    )
    .returning({ hostname: customDomains.hostname });
  return rows.map((row) => row.hostname);
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

/**
 * The domain a request's Host names, whatever its account: the proven one when there is one, else any
 * claim that has not lapsed (several accounts may claim a name until one proves it). One indexed lookup.
 */
export async function customDomainByHostname(db: Db, hostname: string, lapsedBefore: string): Promise<CustomDomain | undefined> {
  return db
    .select()
    .from(customDomains)
    .where(
      and(eq(customDomains.hostname, hostname), or(ne(customDomains.status, 'pending'), sql`${customDomains.createdAt} > ${lapsedBefore}`)),
    )
    .orderBy(sql`${customDomains.status} = 'pending'`)
    .limit(1)
    .get();
}

export type ActiveDomain = Pick<CustomDomain, 'id' | 'hostname' | 'isDefault' | 'branding'>;

/** The account's active domains: the ones links may use, with the branding emails on them carry. */
export async function activeDomainsOf(db: Db, accountId: number): Promise<ActiveDomain[]> {
  return db
    .select({
      id: customDomains.id,
      hostname: customDomains.hostname,
      isDefault: customDomains.isDefault,
      branding: customDomains.branding,
    })
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
export async function claimCloudflareHostname(
  db: Db,
  accountId: number,
  id: number,
  changes: CustomDomainChanges,
  at: string,
): Promise<CustomDomain | undefined> {
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
