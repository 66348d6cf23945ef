// Sealed document rows and the submissions still waiting for them.
import { and, asc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { submissionDocuments, submissions, type NewSubmissionDocument, type Submission, type SubmissionDocument } from '../schema';

export async function listSealedDocuments(db: Db, submissionId: number): Promise<SubmissionDocument[]> {
  return db.select().from(submissionDocuments).where(eq(submissionDocuments.submissionId, submissionId)).orderBy(asc(submissionDocuments.id));
}

/**
 * A plain insert: when another run sealed the same document first, the unique index fails the whole
 * batch, so its `document.generated` event is not written twice.
 */
export function insertSealedDocumentStatement(db: Db, row: NewSubmissionDocument) {
  return db.insert(submissionDocuments).values(row);
}

export function markSealedStatement(db: Db, submissionId: number, at: string) {
  return db
    .update(submissions)
    .set({ sealedAt: at, updatedAt: at })
    .where(and(eq(submissions.id, submissionId), isNull(submissions.sealedAt)));
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

/** Completed submissions without sealed documents whose completion is older than `before` (the sweep). */
export async function listUnsealedCompleted(db: Db, before: string, limit: number): Promise<Pick<Submission, 'id'>[]> {
  return db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(isNull(submissions.sealedAt), isNotNull(submissions.completedAt), lt(submissions.completedAt, before), eq(submissions.status, 'completed')))
    .orderBy(asc(submissions.completedAt))
    .limit(limit);
}
