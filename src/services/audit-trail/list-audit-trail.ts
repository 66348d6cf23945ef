// The account's audit trail as one list: the events still in D1 and the parts archived to R2, merged by
// id, so a page, its cursors and its filters are the same wherever an event lives (spec › Limits: audit
// retention 7 years; decisions › Scale).
import type { Db } from '../../db/client';
import { listArchivedParts, type ArchivedPartsQuery } from '../../db/queries/audit-archives';
import { listAuditEvents, type AuditEventFilters } from '../../db/queries/audit-events';
import type { AuditArchive, AuditEvent } from '../../db/schema';
import type { CursorWindow } from '../../lib/pagination';
import { readArchivePart } from './archive-part';
import { firstRetainedMonth } from './retention';

/** Index rows read per query: a page usually needs one part, a filtered one may walk further. */
const PARTS_PER_QUERY = 4;

/** The same conditions `listAuditEvents` puts in SQL, for events read from R2. */
function matches(event: AuditEvent, filters: AuditEventFilters, window: CursorWindow): boolean {
  if (window.belowId !== undefined && !(event.id < window.belowId)) return false;
  if (window.aboveId !== undefined && !(event.id > window.aboveId)) return false;
  if (filters.action && event.action !== filters.action) return false;
  if (filters.resourceType && event.resourceType !== filters.resourceType) return false;
  if (filters.resourceId && event.resourceId !== filters.resourceId) return false;
  if (filters.userId && event.userId !== filters.userId) return false;
  if (filters.createdAfter && !(event.createdAt >= filters.createdAfter)) return false;
  if (filters.createdBefore && !(event.createdAt <= filters.createdBefore)) return false;
  return true;
}

/**
 * One cursor window of the trail, like `listAuditEvents`. Parts come in cursor order, and their id ranges
 * never overlap (the archiver's batch refuses one that would); once the window is full, a part entirely
 * beyond its last row cannot change it, and neither can any part after that one, so reading stops there.
 * Months outside `created_after`/`created_before`, or past the 7 years' retention, are never read. A
 * part that fails its checks throws (`ArchivePartError`): the request fails rather than answering with a
 * trail that may be wrong.
 */
export async function listAuditTrail(
  db: Db,
  files: R2Bucket,
  accountId: number,
  filters: AuditEventFilters,
  window: CursorWindow,
  now: number = Date.now(),
): Promise<AuditEvent[]> {
  const desc = window.order === 'desc';
  // Months past retention are being deleted (src/scheduled/audit-archive.ts): never read one half-gone.
  const retained = firstRetainedMonth(now);
  const filterFrom = filters.createdAfter?.slice(0, 7);
  const partsQuery: ArchivedPartsQuery = {
    accountId,
    order: window.order,
    beyond: desc ? window.belowId : window.aboveId,
    fromMonth: filterFrom && filterFrom > retained ? filterFrom : retained,
    toMonth: filters.createdBefore?.slice(0, 7),
    limit: PARTS_PER_QUERY,
  };
  // One round trip for the live rows and the first index rows.
  const [live, firstParts] = await db.batch([listAuditEvents(db, accountId, filters, window), listArchivedParts(db, partsQuery)]);
  let rows: AuditEvent[] = live;
  const inOrder = (a: AuditEvent, b: AuditEvent) => (desc ? b.id - a.id : a.id - b.id);
  let parts: AuditArchive[] = firstParts;
  while (parts.length > 0) {
    for (const part of parts) {
      if (rows.length >= window.take) {
        const edge = rows[window.take - 1].id;
        if (desc ? part.lastId < edge : part.firstId > edge) return rows;
      }
      const events = (await loadArchivedEvents(files, part)).filter((event) => matches(event, filters, window));
      rows = rows.concat(events).sort(inOrder).slice(0, window.take);
    }
    if (parts.length < PARTS_PER_QUERY) break;
    const last = parts[parts.length - 1];
    parts = await listArchivedParts(db, { ...partsQuery, after: desc ? last.firstId : last.lastId });
  }
  return rows;
}

/**
 * Parts last read by this isolate, by key: paging through archived history reads the same part for many
 * pages. Each use still asks R2 whether the object changed (a conditional get on its etag); only an
 * unchanged one is taken from here, so a replaced object is read and checked again.
 */
const recentParts = new Map<string, { etag: string; sha256: string; events: AuditEvent[] }>();
const RECENT_PARTS = 8;

async function loadArchivedEvents(files: R2Bucket, part: AuditArchive): Promise<AuditEvent[]> {
  const cached = recentParts.get(part.r2Key);
  const usable = cached?.sha256 === part.sha256 ? cached : undefined;
  const object = await files.get(part.r2Key, usable ? { onlyIf: { etagDoesNotMatch: usable.etag } } : undefined);
  recentParts.delete(part.r2Key);
  if (usable && object && !('body' in object)) {
    recentParts.set(part.r2Key, usable);
    return usable.events;
  }
  const events = await readArchivePart(part, object as R2ObjectBody | null);
  recentParts.set(part.r2Key, { etag: object!.etag, sha256: part.sha256, events });
  if (recentParts.size > RECENT_PARTS) recentParts.delete(recentParts.keys().next().value!);
  return events;
}
