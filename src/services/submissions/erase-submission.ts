// Erasure (issue 33 › 5): a submission's documents and personal data are removed for good, and what
// proves what was signed is kept. Kept: the trail's events, each sealed document's SHA-256, and every
// value and contact detail as its SHA-256 (whoever holds the original can show it matches). Removed: the
// submission's files in R2 (sealed documents, signer uploads, qes revisions, generated copies of DOCX
// documents), its messages, uploads, verification codes and payment rows. A receipt (`erased` in the
// trail) lists the document hashes.
//
// Racing a legal hold: the erasure first claims the row in one statement that refuses a held one, and a
// hold is refused once the row is claimed (db/queries/retention.ts). So either the hold wins and nothing
// is touched, or the erasure runs to its end; a crash in between leaves a claimed row the purge step
// finishes (purge-submissions.ts). The files go before the rows, so a failure never leaves rows
// claiming files that are gone while the submission still reads as whole.
import type { Db } from '../../db/client';
import { insertAuditEventStatement } from '../../db/queries/audit-events';
import { claimErasure, eraseSubmissionStatements } from '../../db/queries/retention';
import { findSubmissionById, insertSubmissionEventStatement } from '../../db/queries/submissions';
import { listSealedDocuments } from '../../db/queries/submission-documents';
import type { NewSubmitter, Submitter } from '../../db/schema/index';
import { sha256Hex } from '../../lib/crypto';
import { attachmentsPrefix, qesFilesPrefix, sealedFilesPrefix } from './file-keys';
import { generatedDocumentKey } from './generated-documents';
import type { SubmissionScope } from './submission-scope';
import { ChangeSet } from './change-set';

export type ErasureReason = 'request' | 'retention';
/** Who erased: a user's request (the account audit trail records it) or the retention step. */
export type ErasureActor = { reason: ErasureReason; userId?: number | null; ip?: string | null; userAgent?: string | null };
export type ErasureOutcome = 'erased' | 'held' | 'already-erased';

class AlreadyErased extends Error {}

/** `sha256:<hex>` of a value as JSON: how an erased value is kept. */
async function hashOf(value: unknown): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify(value))}`;
}

async function hashedSubmitter(submitter: Submitter, at: string): Promise<Partial<NewSubmitter>> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(submitter.values)) values[key] = await hashOf(value);
  const hashText = async (text: string | null) => (text === null ? null : hashOf(text));
  return {
    values,
    email: await hashText(submitter.email),
    name: await hashText(submitter.name),
    phone: await hashText(submitter.phone),
    metadata: {},
    completedIp: null,
    completedUserAgent: null,
    declineReason: await hashText(submitter.declineReason),
    updatedAt: at,
  };
}

async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix, cursor });
    if (listed.objects.length) await bucket.delete(listed.objects.map((o) => o.key));
    removed += listed.objects.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return removed;
}

/** Removes every file of the submission; returns how many there were. */
async function deleteFiles(bucket: R2Bucket, scope: SubmissionScope): Promise<number> {
  const { accountId, id, slug } = scope.submission;
  let removed = 0;
  for (const prefix of [sealedFilesPrefix(accountId, id), attachmentsPrefix(accountId, id), qesFilesPrefix(accountId, id)]) {
    removed += await deletePrefix(bucket, prefix);
  }
  // Filled copies of DOCX documents live beside the template's document (generated-documents.ts).
  const generated = scope.template.documents.map((d) => generatedDocumentKey(d, slug));
  const present = (await Promise.all(generated.map((key) => bucket.head(key)))).filter((o) => o !== null);
  if (present.length) await bucket.delete(present.map((o) => o.key));
  return removed + present.length;
}

/**
 * Erases the submission: 'held' when a legal hold stopped it (nothing changed), 'already-erased' when
 * another run finished it first, 'erased' otherwise.
 */
export async function eraseSubmission(db: Db, bucket: R2Bucket, scope: SubmissionScope, actor: ErasureActor): Promise<ErasureOutcome> {
  const { submission } = scope;
  const at = new Date().toISOString();
  if (!(await claimErasure(db, submission.id, at))) {
    const now = await findSubmissionById(db, submission.id);
    return now?.erasedAt ? 'already-erased' : 'held';
  }
  const filesRemoved = await deleteFiles(bucket, scope);
  const documents = (await listSealedDocuments(db, submission.id)).map((d) => ({
    filename: d.filename,
    sha256: d.sha256,
    original_sha256: d.originalSha256,
  }));
  const hashed = await Promise.all(scope.submitters.map(async (s) => ({ id: s.id, values: await hashedSubmitter(s, at) })));
  const { guarded, rest } = eraseSubmissionStatements(db, submission, hashed, at);
  const receipt = { reason: actor.reason, user_id: actor.userId ?? null, documents, files_removed: filesRemoved };
  const cs = new ChangeSet(db).guarded(guarded).add(
    ...rest,
    insertSubmissionEventStatement(db, { submissionId: submission.id }, null, {
      accountId: submission.accountId,
      action: 'erased',
      ip: actor.ip ?? null,
      userAgent: actor.userAgent ?? null,
      data: receipt,
      at,
    }),
  );
  // A request is recorded in the account audit trail by its middleware; retention records itself.
  if (actor.reason === 'retention') {
    cs.add(
      insertAuditEventStatement(db, {
        accountId: submission.accountId,
        actor: 'retention',
        action: 'submission.erase',
        resourceType: 'submission',
        resourceId: String(submission.id),
        method: 'CRON',
        path: 'retention',
        status: 200,
        requestId: `erasure-${submission.id}`,
        details: receipt,
        createdAt: at,
      }),
    );
  }
  try {
    await cs.commit(undefined, () => new AlreadyErased());
  } catch (error) {
    if (error instanceof AlreadyErased) return 'already-erased';
    throw error;
  }
  return 'erased';
}
