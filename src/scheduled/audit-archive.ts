// Moves audit events older than 90 days from D1 to R2 (spec decisions › Scale: kept 7 years, as NDJSON per
// account and month), so the trail never fills a database. Acts on the one database it is given (a
// shard), in bounded batches: at most `maxParts` objects of at most `partEvents` events per run.
//
// A month is archived once all of it is older than `afterDays`, so its events go out in a few full
// parts rather than a sliver every minute; an event therefore stays in D1 for 90 to 121 days.
// Order per part: the R2 object first, then one D1 batch (index row + delete). A crash between the two
// leaves an object no index row names; the next run selects the same events, writes the same key again
// and records it then. The reader only follows index rows, so nothing is ever served twice or lost.
//
// The same step deletes what is past the 7 years' retention, a few account-months per run: the R2 objects
// under the month's prefix first (orphans of interrupted runs included), then its index rows. The reader
// already skips those months, so a run stopped between the two serves nothing missing.
import type { Db } from '../db/client';
import {
  archivedMonthsBefore,
  auditEventsCreatedBetween,
  deleteArchivedMonth,
  oldestAuditEventBefore,
  partBounds,
  recordArchivedPart,
} from '../db/queries/audit-archives';
import { archiveMonthPrefix, archivePartKey, encodeArchivePart } from '../services/audit-trail/archive-part';
import { firstRetainedMonth } from '../services/audit-trail/retention';

export const AUDIT_ARCHIVE_AFTER_DAYS = 90;
/** ≈ 300–400 bytes an event: a part is a few hundred KB, so a page reads at most a part or two. */
export const AUDIT_PART_EVENTS = 1000;
/** Parts per run: a few D1 statements and one R2 write each, far inside a cron invocation's time. */
export const AUDIT_PARTS_PER_RUN = 4;
/** Account-months past retention deleted per run (an R2 list and delete or two each). */
export const AUDIT_EXPIRED_MONTHS_PER_RUN = 4;

const DAY_MS = 24 * 60 * 60 * 1000;

export type ArchiveOptions = { afterDays?: number; partEvents?: number; maxParts?: number; maxExpiredMonths?: number };
export type ArchiveResult = { parts: number; events: number; expiredMonths: number };

/** `YYYY-MM-01` of the UTC month `time` falls in. */
function monthStart(time: number): string {
  return new Date(time).toISOString().slice(0, 8) + '01';
}

/** `YYYY-MM-01` of the month after `YYYY-MM`. */
function nextMonthStart(month: string): string {
  const [year, monthNo] = month.split('-').map(Number);
  return new Date(Date.UTC(year, monthNo, 1)).toISOString().slice(0, 10);
}

/**
 * Everything created before this (`YYYY-MM-01`) lies in a month that ended more than `afterDays` ago.
 * Bounds are date prefixes, which sort before every time of their day, so a month's range catches
 * each of its rows whatever the precision of its `created_at`.
 */
export function archiveCutoff(now: number, afterDays = AUDIT_ARCHIVE_AFTER_DAYS): string {
  return monthStart(now - afterDays * DAY_MS);
}

export async function archiveAuditEvents(db: Db, files: R2Bucket, now: number, options: ArchiveOptions = {}): Promise<ArchiveResult> {
  const partEvents = options.partEvents ?? AUDIT_PART_EVENTS;
  const maxParts = options.maxParts ?? AUDIT_PARTS_PER_RUN;
  const cutoff = archiveCutoff(now, options.afterDays);
  const result: ArchiveResult = { parts: 0, events: 0, expiredMonths: 0 };
  while (result.parts < maxParts) {
    const oldest = await oldestAuditEventBefore(db, cutoff);
    if (!oldest) break;
    const month = oldest.createdAt.slice(0, 7);
    const from = `${month}-01`;
    const to = nextMonthStart(month);
    const selected = await auditEventsCreatedBetween(db, oldest.accountId, from, to, partEvents);
    // Only a created_at that is no date at all could be outside its own month's range; stop rather than spin.
    if (selected.length === 0)
      throw new Error(`audit event of account ${oldest.accountId} has an unreadable created_at: ${oldest.createdAt}`);
    // A part's id range holds only its own events (the reader walks parts by id range). Ids follow time, so
    // this cuts nothing unless events were written with chosen ids.
    const bounds = await partBounds(db, oldest.accountId, selected[0].id, selected[selected.length - 1].id, from, to);
    if (bounds.inside !== undefined) {
      throw new Error(
        `audit event ${selected[0].id} of account ${oldest.accountId} lies inside the archived part starting at ${bounds.inside}`,
      );
    }
    const events = bounds.stopAt === undefined ? selected : selected.filter((event) => event.id < bounds.stopAt!);
    const firstId = events[0].id;
    const lastId = events[events.length - 1].id;
    const r2Key = archivePartKey(oldest.accountId, month, firstId, lastId);
    const { body, sha256 } = await encodeArchivePart(events);
    await files.put(r2Key, body, {
      sha256,
      httpMetadata: { contentType: 'application/x-ndjson' },
      customMetadata: {
        sha256,
        account_id: String(oldest.accountId),
        month,
        first_id: String(firstId),
        last_id: String(lastId),
        event_count: String(events.length),
      },
    });
    await recordArchivedPart(
      db,
      { accountId: oldest.accountId, month, firstId, lastId, eventCount: events.length, sha256, r2Key, byteSize: body.byteLength },
      events.map((event) => event.id),
    );
    result.parts += 1;
    result.events += events.length;
  }
  result.expiredMonths = await deleteExpiredArchives(db, files, now, options.maxExpiredMonths ?? AUDIT_EXPIRED_MONTHS_PER_RUN);
  return result;
}

async function deleteExpiredArchives(db: Db, files: R2Bucket, now: number, limit: number): Promise<number> {
  const months = await archivedMonthsBefore(db, firstRetainedMonth(now), limit);
  for (const { accountId, month } of months) {
    const prefix = archiveMonthPrefix(accountId, month);
    let cursor: string | undefined;
    do {
      const listed = await files.list({ prefix, cursor });
      if (listed.objects.length > 0) await files.delete(listed.objects.map((object) => object.key));
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
    await deleteArchivedMonth(db, accountId, month);
  }
  return months.length;
}
