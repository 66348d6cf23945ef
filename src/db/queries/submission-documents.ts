// Sealed document rows and the submissions still waiting for them.
import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { submissionDocuments, submissions, type NewSubmissionDocument, type Submission, type SubmissionDocument } from '../schema';

export async function listSealedDocuments(db: Db, submissionId: number): Promise<SubmissionDocument[]> {
  return db
    .select()
    .from(submissionDocuments)
    .where(eq(submissionDocuments.submissionId, submissionId))
    .orderBy(asc(submissionDocuments.id));
}

/**
 * A plain insert: when another run sealed the same document first, the unique index fails the whole
 * batch, so its `document.generated` event is not written twice.
 */
export function insertSealedDocumentStatement(db: Db, row: NewSubmissionDocument) {
  return db.insert(submissionDocuments).values(row);
}

/** Sealed: any failure recorded by an earlier run is over. */
export function markSealedStatement(db: Db, submissionId: number, at: string) {
  return db
    .update(submissions)
    .set({ sealedAt: at, sealFailedAt: null, sealFailure: null, updatedAt: at })
    .where(and(eq(submissions.id, submissionId), isNull(submissions.sealedAt)));
}

/** The sealing job failed its last retry: recorded unless another run sealed it meanwhile. */
export async function markSealFailed(db: Db, submissionId: number, at: string, reason: string): Promise<void> {
  await db
    .update(submissions)
    .set({ sealFailedAt: at, sealFailure: reason })
    .where(and(eq(submissions.id, submissionId), isNull(submissions.sealedAt)));
}

/**
 * A fresh start for sealing (POST …/documents/reseal): the failure is cleared and the sweep's backoff
 * reset, so the safety net covers the new attempt as it covers a new completion. False when the
 * submission was sealed meanwhile.
 */
export async function resetSealing(db: Db, accountId: number, submissionId: number): Promise<boolean> {
  const row = await db
    .update(submissions)
    .set({ sealFailedAt: null, sealFailure: null, sealSweeps: 0, sealSweptAt: null })
    .where(
      and(
        eq(submissions.id, submissionId),
        eq(submissions.accountId, accountId),
        isNull(submissions.sealedAt),
        isNotNull(submissions.completedAt),
      ),
    )
    .returning({ id: submissions.id })
    .get();
  return Boolean(row);
}

/** Whether this account sealed a file with this SHA-256 (POST /api/tools/verify). */
export async function isSealedByAccount(db: Db, accountId: number, sha256: string): Promise<boolean> {
  const row = await db
    .select({ id: submissionDocuments.id })
    .from(submissionDocuments)
    .where(and(eq(submissionDocuments.accountId, accountId), eq(submissionDocuments.sha256, sha256)))
    .get();
  return Boolean(row);
}

/**
 * Completed submissions without sealed documents, completed before `before`, whose sweep is due: never
 * swept, or last swept longer ago than the backoff for their sweep count; at most `limit`, least
 * recently swept first so that no submission starves another. Past `maxSweeps` a submission is left.
 */
export async function listUnsealedCompleted(
  db: Db,
  before: string,
  now: number,
  limit: number,
  maxSweeps: number,
  backoffMs: (sweeps: number) => number,
): Promise<Pick<Submission, 'id' | 'sealSweeps'>[]> {
  const candidates = await db
    .select({ id: submissions.id, sealSweeps: submissions.sealSweeps, sealSweptAt: submissions.sealSweptAt })
    .from(submissions)
    .where(
      and(
        isNull(submissions.sealedAt),
        isNotNull(submissions.completedAt),
        lt(submissions.completedAt, before),
        eq(submissions.status, 'completed'),
        // An erased submission is never sealed again (issue 33 › 5).
        isNull(submissions.erasureStartedAt),
        lt(submissions.sealSweeps, maxSweeps),
        notFenced(submissions.accountId),
      ),
    )
    .orderBy(sql`${submissions.sealSweptAt} IS NOT NULL`, asc(submissions.sealSweptAt), asc(submissions.completedAt))
    .limit(limit * 4);
  return candidates
    .filter((c) => c.sealSweptAt === null || Date.parse(c.sealSweptAt) + backoffMs(c.sealSweeps) <= now)
    .slice(0, limit)
    .map(({ id, sealSweeps }) => ({ id, sealSweeps }));
}

/** Records that the sweep re-queued these submissions now. */
export async function markSwept(db: Db, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(submissions)
    .set({ sealSweeps: sql`${submissions.sealSweeps} + 1`, sealSweptAt: at })
    .where(inList(submissions.id, ids));
}
