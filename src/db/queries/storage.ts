// What an account stores, in bytes, and the signing-page uploads behind part of it. Each sum reads one
// covering index on (account_id, byte_size), so the total costs three index range scans, no table rows.
import { and, asc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { signingUploads, submissionDocuments, submitters, templateDocuments, type NewSigningUpload } from '../schema';

/**
 * The bytes an account keeps in R2, as one unexecuted scalar query: every template document row (a
 * replaced or removed document keeps its row and file for the versions and submissions made from it,
 * so each stored version counts) with its thumbnails, every signing-page upload, and every sealed document. The combined
 * download (`combined.pdf`) has no row and is left out (docs/decisions.md › Integrity: storage).
 */
export function storedBytesQuery(accountId: number): SQL {
  return sql`SELECT
    (SELECT coalesce(sum(${templateDocuments.byteSize} + ${templateDocuments.thumbnailBytes}), 0) FROM ${templateDocuments} WHERE ${templateDocuments.accountId} = ${accountId})
    + (SELECT coalesce(sum(${signingUploads.byteSize}), 0) FROM ${signingUploads} WHERE ${signingUploads.accountId} = ${accountId})
    + (SELECT coalesce(sum(${submissionDocuments.byteSize}), 0) FROM ${submissionDocuments} WHERE ${submissionDocuments.accountId} = ${accountId})`;
}

export async function storedBytes(db: Db, accountId: number): Promise<number> {
  const row = await db.get<{ bytes: number }>(sql`SELECT (${storedBytesQuery(accountId)}) AS bytes`);
  return Number(row?.bytes ?? 0);
}

/** Which of `uuids` are uploads of this submitter. */
export async function uploadUuidsOf(db: Db, submitterId: number, uuids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ uuid: signingUploads.uuid })
    .from(signingUploads)
    .where(and(eq(signingUploads.submitterId, submitterId), inList(signingUploads.uuid, uuids)));
  return new Set(rows.map((r) => r.uuid));
}

export function insertSigningUploadStatement(db: Db, upload: NewSigningUpload) {
  return db.insert(signingUploads).values(upload);
}

/** True when the upload's submitter's values name it (`attachment:<uuid>`, under whichever field). */
const referenced = sql`EXISTS (SELECT 1 FROM json_each(${submitters.values}) AS v WHERE v.value = 'attachment:' || ${signingUploads.uuid})`;

/**
 * Open uploads (not yet kept) created before `before` that no form keeps: their submitter's values do
 * not name them, or the submitter declined or expired (a form that can no longer be completed).
 * Oldest first, at most `limit`.
 */
export async function findAbandonedUploads(db: Db, before: string, limit: number): Promise<{ id: number; r2Key: string }[]> {
  return db
    .select({ id: signingUploads.id, r2Key: signingUploads.r2Key })
    .from(signingUploads)
    .innerJoin(submitters, eq(submitters.id, signingUploads.submitterId))
    .where(
      and(
        isNull(signingUploads.keptAt),
        lt(signingUploads.createdAt, before),
        notFenced(signingUploads.accountId),
        sql`(${submitters.status} IN ('declined', 'expired') OR NOT ${referenced})`,
      ),
    )
    .orderBy(asc(signingUploads.createdAt))
    .limit(limit);
}

/**
 * Marks open uploads created before `before` that a completed form names as kept for good, at most
 * `limit`; the cleanup's scan then skips them. Returns how many were marked.
 */
export async function markKeptUploads(db: Db, before: string, at: string, limit: number): Promise<number> {
  const settled = db
    .select({ id: signingUploads.id })
    .from(signingUploads)
    .innerJoin(submitters, eq(submitters.id, signingUploads.submitterId))
    .where(
      and(
        isNull(signingUploads.keptAt),
        lt(signingUploads.createdAt, before),
        notFenced(signingUploads.accountId),
        eq(submitters.status, 'completed'),
        referenced,
      ),
    )
    .orderBy(asc(signingUploads.createdAt))
    .limit(limit)
    .as('settled');
  const marked = await db
    .update(signingUploads)
    .set({ keptAt: at })
    .where(sql`${signingUploads.id} IN (SELECT ${settled.id} FROM ${settled})`)
    .returning({ id: signingUploads.id });
  return marked.length;
}

/** Deletes upload rows by id (one JSON parameter, whatever the number: src/db/bound-parameters.ts). */
export async function deleteSigningUploads(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(signingUploads).where(inList(signingUploads.id, ids));
}

/** The upload rows of one submission, for its permanent deletion (before its submitters'). */
export function deleteSubmissionUploadsStatement(db: Db, submissionId: number) {
  return db.delete(signingUploads).where(eq(signingUploads.submissionId, submissionId));
}
