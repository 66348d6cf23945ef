// The people of any-one-of submitters (issue 33 › 2): inserted with their submission, read with its
// scope, found by their own signing slug, and the one who signed marked in the completion's batch.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { inSubmissionsOfSlugs } from './submissions';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { idBySlug, insertRows, SqlValue } from '../row-inserts';
import { submitterMembers, type NewSubmitterMember, type SubmitterMember } from '../schema';

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

export async function listMembersOf(db: Db, submissionIds: number[]): Promise<SubmitterMember[]> {
  if (submissionIds.length === 0) return [];
  return db
    .select()
    .from(submitterMembers)
    .where(inList(submitterMembers.submissionId, submissionIds))
    .orderBy(asc(submitterMembers.submitterId), asc(submitterMembers.position));
}

/** The members of the submissions of `slugs`, ordered as listMembersOf orders them, as a statement. */
export function membersBySubmissionSlugsStatement(db: Db, slugs: string[]) {
  return db
    .select()
    .from(submitterMembers)
    .where(inSubmissionsOfSlugs(submitterMembers.submissionId, slugs))
    .orderBy(asc(submitterMembers.submitterId), asc(submitterMembers.position));
}

/** A member by their signing slug: the signing page's entry point when no submitter has the slug. */
export async function findMemberBySlug(db: Db, accountId: number, slug: string): Promise<SubmitterMember | undefined> {
  return db
    .select()
    .from(submitterMembers)
    .where(and(eq(submitterMembers.slug, slug), eq(submitterMembers.accountId, accountId)))
    .get();
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
