// Audit events moved to R2 and the index of those objects (src/db/schema/audit-archives.ts). The archiver
// (src/scheduled/audit-archive.ts) and the trail's reader (src/services/audit-trail/) use these.
import { and, asc, desc, eq, gt, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { auditArchives, auditEvents, type AuditArchive, type AuditEvent } from '../schema';

/** The oldest audit event created before `before` (an ISO time), by the `audit_events_created` index. */
export async function oldestAuditEventBefore(db: Db, before: string): Promise<Pick<AuditEvent, 'accountId' | 'createdAt'> | undefined> {
  const [row] = await db
    .select({ accountId: auditEvents.accountId, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(lt(auditEvents.createdAt, before))
    .orderBy(asc(auditEvents.createdAt))
    .limit(1);
  return row;
}

/** One account's events created in [from, to), oldest id first: the next part to archive. */
export function auditEventsCreatedBetween(db: Db, accountId: number, from: string, to: string, limit: number): Promise<AuditEvent[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), gte(auditEvents.createdAt, from), lt(auditEvents.createdAt, to)))
    .orderBy(asc(auditEvents.id))
    .limit(limit);
}

export type NewAuditArchive = Omit<AuditArchive, 'id' | 'createdAt'>;

/**
 * The D1 half of archiving one part, as one batch (all or nothing): the index row, then the delete of the
 * events the object holds. The index row is inserted only while every one of `ids` is still in
 * `audit_events` (otherwise `sha256` is NULL and its NOT NULL constraint fails the batch), and the unique
 * `(account_id, first_id)` and `r2_key` refuse a second row for the same part: a re-run, or two runs at
 * once, can neither index events twice nor delete events no index row points to.
 */
export async function recordArchivedPart(db: Db, part: NewAuditArchive, ids: readonly number[]): Promise<void> {
  const archived = and(eq(auditEvents.accountId, part.accountId), inList(auditEvents.id, ids));
  const stillInD1 = sql`(SELECT count(*) FROM ${auditEvents} WHERE ${archived})`;
  await db.batch([
    db.insert(auditArchives).values({ ...part, sha256: sql`CASE WHEN ${stillInD1} = ${ids.length} THEN ${part.sha256} END` }),
    db.delete(auditEvents).where(archived),
  ]);
}

/** The part recorded under `r2Key`, if any. */
export async function findArchivedPart(db: Db, r2Key: string): Promise<AuditArchive | undefined> {
  const [row] = await db.select().from(auditArchives).where(eq(auditArchives.r2Key, r2Key)).limit(1);
  return row;
}

/** Which parts may hold a page: the cursor side, an earlier batch's keyset, and the months a time filter allows. */
export type ArchivedPartsQuery = {
  accountId: number;
  /** Newest first (parts by `last_id` descending) or oldest first (`first_id` ascending). */
  order: 'desc' | 'asc';
  /** Parts holding some id below this (desc) or above it (asc): the cursor. */
  beyond?: number;
  /** Keyset of the previous batch: the last `last_id` (desc) or `first_id` (asc) already read. */
  after?: number;
  fromMonth?: string;
  toMonth?: string;
  limit: number;
};

/** A batch of index rows in reading order (`audit_archives_account_last` / `_first` serve both orders). */
export function listArchivedParts(db: Db, query: ArchivedPartsQuery) {
  const desc_ = query.order === 'desc';
  const conditions: (SQL | undefined)[] = [
    eq(auditArchives.accountId, query.accountId),
    query.beyond === undefined ? undefined : desc_ ? lt(auditArchives.firstId, query.beyond) : gt(auditArchives.lastId, query.beyond),
    query.after === undefined ? undefined : desc_ ? lt(auditArchives.lastId, query.after) : gt(auditArchives.firstId, query.after),
    query.fromMonth ? gte(auditArchives.month, query.fromMonth) : undefined,
    query.toMonth ? lte(auditArchives.month, query.toMonth) : undefined,
  ];
  return db
    .select()
    .from(auditArchives)
    .where(and(...conditions))
    .orderBy(desc_ ? desc(auditArchives.lastId) : asc(auditArchives.firstId))
    .limit(query.limit);
}
