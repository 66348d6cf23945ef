// Audit events moved to R2 and the index of those objects (src/db/schema/audit-archives.ts). The archiver
// (src/scheduled/audit-archive.ts) and the trail's reader (src/services/audit-trail/) use these.
import { and, asc, desc, eq, gt, gte, lt, lte, not, sql, type SQL } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { auditArchives, auditEvents, type AuditArchive, type AuditEvent } from '../schema';

/**
 * The oldest audit event created before `before` (an ISO time), by the `audit_events_created` index,
 * of an account no move has fenced: a fenced account's part could not be recorded, and the archiver
 * would stop at it on every run (src/db/fences.ts).
 */
export async function oldestAuditEventBefore(db: Db, before: string): Promise<Pick<AuditEvent, 'accountId' | 'createdAt'> | undefined> {
  const [row] = await db
    .select({ accountId: auditEvents.accountId, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(and(lt(auditEvents.createdAt, before), notFenced(auditEvents.accountId)))
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
 * What bounds a part about to be made of an account's events in [from, to) starting at `firstId`: the
 * archived part whose id range already holds `firstId` (`inside`, normally none), and the first id after
 * `firstId` (up to `lastId`) that the part must not reach: a live event of another month, or the start of
 * an archived part. Parts' id ranges never overlap (the reader relies on it).
 */
export async function partBounds(
  db: Db,
  accountId: number,
  firstId: number,
  lastId: number,
  from: string,
  to: string,
): Promise<{ inside?: number; stopAt?: number }> {
  const [below, foreign, nextPart] = await db.batch([
    db
      .select({ firstId: auditArchives.firstId, lastId: auditArchives.lastId })
      .from(auditArchives)
      .where(and(eq(auditArchives.accountId, accountId), lte(auditArchives.firstId, firstId)))
      .orderBy(desc(auditArchives.firstId))
      .limit(1),
    db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, accountId),
          gt(auditEvents.id, firstId),
          lte(auditEvents.id, lastId),
          not(and(gte(auditEvents.createdAt, from), lt(auditEvents.createdAt, to))!),
        ),
      )
      .orderBy(asc(auditEvents.id))
      .limit(1),
    db
      .select({ firstId: auditArchives.firstId })
      .from(auditArchives)
      .where(and(eq(auditArchives.accountId, accountId), gt(auditArchives.firstId, firstId), lte(auditArchives.firstId, lastId)))
      .orderBy(asc(auditArchives.firstId))
      .limit(1),
  ]);
  const stops = [foreign[0]?.id, nextPart[0]?.firstId].filter((id): id is number => id !== undefined);
  return {
    inside: below[0] && below[0].lastId >= firstId ? below[0].firstId : undefined,
    stopAt: stops.length ? Math.min(...stops) : undefined,
  };
}

/**
 * The D1 half of archiving one part, as one batch (all or nothing): the index row, then the delete of the
 * events the object holds. The index row is inserted only while every one of `ids` is still in
 * `audit_events` and no recorded part's id range overlaps this one's (otherwise `sha256` is NULL and its
 * NOT NULL constraint fails the batch); the unique `(account_id, first_id)` and `r2_key` say the same
 * for the same part. A re-run, or two runs at once, can neither index events twice nor delete events no
 * index row points to.
 */
export async function recordArchivedPart(db: Db, part: NewAuditArchive, ids: readonly number[]): Promise<void> {
  const archived = and(eq(auditEvents.accountId, part.accountId), inList(auditEvents.id, ids));
  const stillInD1 = sql`(SELECT count(*) FROM ${auditEvents} WHERE ${archived}) = ${ids.length}`;
  const overlapping = and(
    eq(auditArchives.accountId, part.accountId),
    lte(auditArchives.firstId, part.lastId),
    gte(auditArchives.lastId, part.firstId),
  );
  const noOverlap = sql`NOT EXISTS (SELECT 1 FROM ${auditArchives} WHERE ${overlapping})`;
  await db.batch([
    db.insert(auditArchives).values({ ...part, sha256: sql`CASE WHEN ${stillInD1} AND ${noOverlap} THEN ${part.sha256} END` }),
    db.delete(auditEvents).where(archived),
  ]);
}

/** Which parts may hold a page: the cursor side, an earlier batch's keyset, and the months a time filter allows. */
export type ArchivedPartsQuery = {
  accountId: number;
  /** Newest first or oldest first. Id ranges never overlap, so `first_id` and `last_id` sort parts alike. */
  order: 'desc' | 'asc';
  /** Parts holding some id below this (desc) or above it (asc): the cursor. */
  beyond?: number;
  /** Keyset of the previous batch: the last `first_id` (desc) or `last_id` (asc) already read. */
  after?: number;
  fromMonth?: string;
  toMonth?: string;
  limit: number;
};

/**
 * A batch of index rows in reading order. Each order walks one index over a range (desc:
 * `audit_archives_account_first`, asc: `audit_archives_account_last`), with no sort.
 */
export function listArchivedParts(db: Db, query: ArchivedPartsQuery) {
  const edge = query.order === 'desc' ? auditArchives.firstId : auditArchives.lastId;
  const beyond = query.order === 'desc' ? lt : gt;
  const conditions: (SQL | undefined)[] = [
    eq(auditArchives.accountId, query.accountId),
    query.beyond === undefined ? undefined : beyond(edge, query.beyond),
    query.after === undefined ? undefined : beyond(edge, query.after),
    query.fromMonth ? gte(auditArchives.month, query.fromMonth) : undefined,
    query.toMonth ? lte(auditArchives.month, query.toMonth) : undefined,
  ];
  return db
    .select()
    .from(auditArchives)
    .where(and(...conditions))
    .orderBy(query.order === 'desc' ? desc(edge) : asc(edge))
    .limit(query.limit);
}

/** Account-months whose parts all lie before `beforeMonth` (`YYYY-MM`), oldest first. */
export function archivedMonthsBefore(db: Db, beforeMonth: string, limit: number) {
  return db
    .selectDistinct({ accountId: auditArchives.accountId, month: auditArchives.month })
    .from(auditArchives)
    .where(lt(auditArchives.month, beforeMonth))
    .orderBy(asc(auditArchives.month), asc(auditArchives.accountId))
    .limit(limit);
}

export async function deleteArchivedMonth(db: Db, accountId: number, month: string): Promise<void> {
  await db.delete(auditArchives).where(and(eq(auditArchives.accountId, accountId), eq(auditArchives.month, month)));
}
