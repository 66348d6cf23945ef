// The people of any-one-of submitters (issue 33 › 2): inserted with their submission, read with its
// scope, found by their own signing slug, and the one who signed marked in the completion's batch.
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { inSubmissionsOfSlugs, type OfSubmissions } from './submissions';
import type { Db } from '../client';
import { idBySlug, insertRows, SqlValue } from '../row-inserts';
import { submitterMembers, submitters, type NewSubmitterMember } from '../schema';

/**
 * Inserts members of submitters created in the same batch, found by the submitter's slug, as multi-row
 * inserts within D1's bound parameters (row-inserts.ts).
 */
export function insertMembersStatements(
  db: Db,
  rows: readonly (Omit<NewSubmitterMember, 'submitterId' | 'submissionId'> & { submitterSlug: string })[],
) {
  return insertRows(
    db,
    submitterMembers,
    rows.map(({ submitterSlug, ...row }) => ({
      ...row,
      submitterId: idBySlug('submitters', submitterSlug),
      submissionId: new SqlValue('(SELECT submission_id FROM submitters WHERE slug = ?)', [submitterSlug]),
    })),
  );
}

/** The members of the submissions' any-one-of submitters, in order, as a statement (for a batch). */
export function membersOfQuery(db: Db, of: OfSubmissions) {
  return db
    .select()
    .from(submitterMembers)
    .where(of(submitterMembers.submissionId))
    .orderBy(asc(submitterMembers.submitterId), asc(submitterMembers.position));
}

/**
 * The id of the submission whose link `slug` is, within the account, as a scalar subquery: a submitter's
 * own slug first, else the slug of one of the people of an any-one-of submitter (issue 33 › 2).
 */
export function submissionIdOfSlug(db: Db, accountId: number, slug: string): SQL {
  const bySubmitter = db
    .select({ id: submitters.submissionId })
    .from(submitters)
    .where(and(eq(submitters.slug, slug), eq(submitters.accountId, accountId)));
  const byMember = db
    .select({ id: submitterMembers.submissionId })
    .from(submitterMembers)
    .where(and(eq(submitterMembers.slug, slug), eq(submitterMembers.accountId, accountId)));
  return sql`coalesce((${bySubmitter}), (${byMember}))`;
}

/** The members of the submissions of `slugs`, ordered as membersOfQuery orders them, as a statement. */
export function membersBySubmissionSlugsStatement(db: Db, slugs: string[]) {
  return db
    .select()
    .from(submitterMembers)
    .where(inSubmissionsOfSlugs(submitterMembers.submissionId, slugs))
    .orderBy(asc(submitterMembers.submitterId), asc(submitterMembers.position));
}

/** Marks the member who signed; in the batch whose guarded submitter transition lets only one through. */
export function memberCompletedStatement(db: Db, id: number, at: string) {
  return db.update(submitterMembers).set({ completedAt: at }).where(eq(submitterMembers.id, id));
}

/** A member's own acceptance of the disclosure, only if none is recorded yet. */
export function acceptMemberDisclosureStatement(db: Db, id: number, version: string, at: string) {
  return db
    .update(submitterMembers)
    .set({ disclosureVersion: version, disclosureAcceptedAt: at })
    .where(and(eq(submitterMembers.id, id), isNull(submitterMembers.disclosureAcceptedAt)));
}

export function deleteMembersOfSubmissionStatement(db: Db, submissionId: number) {
  return db.delete(submitterMembers).where(eq(submitterMembers.submissionId, submissionId));
}
