// The people of any-one-of submitters (issue 33 › 2): inserted with their submission, read with its
// scope, found by their own signing slug, and the one who signed marked in the completion's batch.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { submitterMembers, type NewSubmitterMember, type SubmitterMember } from '../schema';

/** Inserts a member of a submitter created in the same batch, found by the submitter's slug. */
export function insertMemberStatement(db: Db, submitterSlug: string, row: Omit<NewSubmitterMember, 'submitterId' | 'submissionId'>) {
  return db.insert(submitterMembers).values({
    ...row,
    submitterId: sql`(SELECT id FROM submitters WHERE slug = ${submitterSlug})`,
    submissionId: sql`(SELECT submission_id FROM submitters WHERE slug = ${submitterSlug})`,
  });
}

export async function listMembersOf(db: Db, submissionIds: number[]): Promise<SubmitterMember[]> {
  if (submissionIds.length === 0) return [];
  return db
    .select()
    .from(submitterMembers)
    .where(inList(submitterMembers.submissionId, submissionIds))
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
