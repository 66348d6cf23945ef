// The rows a submission's scope is built from (services/submissions/submission-scope.ts), each read in
// one D1 batch: its submitters and members, the template version it was made from, its template's
// public id and its documents — for a list page, or for one submission named in SQL, found in the
// same batch.
import { eq, type SQL } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import type { Submission, Submitter, SubmitterMember } from '../schema';
import { sourcesFrom, sourcesQueries, submissionWithSourcesQueries, submittersOfQuery, type SubmissionSources } from './submissions';
import { membersOfQuery } from './submitter-members';

export type ScopeRows = SubmissionSources & { submitters: Submitter[]; members: SubmitterMember[] };

/** The scope rows of the submissions of a list, whatever their number. */
export async function readScopeRows(
  db: Db,
  list: Pick<Submission, 'id' | 'templateId' | 'templateVersion' | 'documentIds'>[],
): Promise<ScopeRows> {
  const ids = list.map((s) => s.id);
  const of = (column: Parameters<typeof inList>[0]) => inList(column, ids);
  const [submitters, members, versions, publicIds, documents] = await db.batch([
    submittersOfQuery(db, of),
    membersOfQuery(db, of),
    ...sourcesQueries(db, list),
  ]);
  return { submitters, members, ...sourcesFrom(versions, publicIds, documents) };
}

/**
 * The submission `id` names (a scalar subquery: submissionIdOf, submissionIdOfSubmitter,
 * submissionIdOfSlug) with its scope rows; undefined when it names none.
 */
export async function findScopeRows(db: Db, id: SQL): Promise<{ submission: Submission; rows: ScopeRows } | undefined> {
  const of = (column: Parameters<typeof eq>[0]) => eq(column, id);
  const queries = submissionWithSourcesQueries(db, id);
  const [[submission], submitters, members, versions, publicIds, documents] = await db.batch([
    queries.submission,
    submittersOfQuery(db, of),
    membersOfQuery(db, of),
    ...queries.sources,
  ]);
  return submission && { submission, rows: { submitters, members, ...sourcesFrom(versions, publicIds, documents) } };
}
