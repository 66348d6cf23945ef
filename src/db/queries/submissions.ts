// Submission, submitter and submission-event rows. Statement builders (`…Statement`) return unexecuted
// queries so services can put a change, its events and its messages in one `db.batch([...])`.
import { and, asc, eq, gte, isNotNull, isNull, lt, lte, or, sql, type Column, type SQL } from 'drizzle-orm';
import { inList, pairInList } from '../bound-parameters';
import { idBySlug, insertRows, SqlValue } from '../row-inserts';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { cursorConditions } from '../cursor';
import {
  events,
  submissionEvents,
  submissions,
  submitters,
  templates,
  templateVersions,
  templateDocuments,
  type NewSubmission,
  type NewSubmitter,
  type Submission,
  type SubmissionEvent,
  type SubmissionEventAction,
  type Submitter,
  type TemplateDocument,
  type TemplateSnapshot,
} from '../schema';
import type { CursorWindow } from '../../lib/pagination';
import type { EventName } from '../../lib/events';
import { capEventData } from '../../lib/event-payload-cap';

const INTEGER_ID = /^\d{1,15}$/;

function submissionRefCondition(ref: string | number): SQL {
  const text = String(ref);
  return INTEGER_ID.test(text) ? eq(submissions.id, Number(text)) : eq(submissions.slug, text);
}

/** A submission of the account, by integer id or slug. */
export async function findSubmission(db: Db, accountId: number, ref: string | number): Promise<Submission | undefined> {
  return db
    .select()
    .from(submissions)
    .where(and(eq(submissions.accountId, accountId), submissionRefCondition(ref)))
    .get();
}

function submitterRefCondition(ref: string | number): SQL {
  const text = String(ref);
  return INTEGER_ID.test(text) ? eq(submitters.id, Number(text)) : eq(submitters.slug, text);
}

/** A submitter by its signing slug, whatever the account: the signing page's entry point. */
export async function findSubmitterBySlug(db: Db, accountId: number, slug: string): Promise<Submitter | undefined> {
  return db
    .select()
    .from(submitters)
    .where(and(eq(submitters.slug, slug), eq(submitters.accountId, accountId)))
    .get();
}

export async function findSubmissionById(db: Db, id: number): Promise<Submission | undefined> {
  return db.select().from(submissions).where(eq(submissions.id, id)).get();
}

export async function listSubmittersOf(db: Db, submissionIds: number[]): Promise<Submitter[]> {
  if (submissionIds.length === 0) return [];
  return submittersOfQuery(db, (column) => inList(column, submissionIds));
}

export async function listSubmissionsByIds(db: Db, ids: number[]): Promise<Submission[]> {
  if (ids.length === 0) return [];
  return db.select().from(submissions).where(inList(submissions.id, ids));
}

/** The submissions of `slugs`, as a statement: at the end of the batch that inserts them, it reads them back. */
export function submissionsBySlugsStatement(db: Db, slugs: string[]) {
  return db.select().from(submissions).where(inList(submissions.slug, slugs));
}

/** The ids of the submissions of `slugs` in ascending order, comma-separated, as one SQL text value. */
export function submissionIdListBySlugs(slugs: string[]): SQL<string> {
  return sql<string>`(SELECT group_concat(id, ',') FROM (SELECT ${submissions.id} AS id FROM ${submissions} WHERE ${inList(submissions.slug, slugs)} ORDER BY ${submissions.id}))`;
}

/** `column` is the id of one of the submissions of `slugs` (their list one JSON parameter, as inList's). */
export function inSubmissionsOfSlugs(column: Column, slugs: string[]): SQL {
  return sql`${column} IN (SELECT ${submissions.id} FROM ${submissions} WHERE ${inList(submissions.slug, slugs)})`;
}

/** The submitters of the submissions of `slugs`, ordered as listSubmittersOf orders them, as a statement. */
export function submittersBySubmissionSlugsStatement(db: Db, slugs: string[]) {
  return db
    .select()
    .from(submitters)
    .where(inSubmissionsOfSlugs(submitters.submissionId, slugs))
    .orderBy(asc(submitters.submissionId), asc(submitters.position), asc(submitters.id));
}

/**
 * Reserves `count` consecutive submission ids before their rows exist (a DOCX built-in `submission_id` is
 * printed into the document before the submission is stored): the AUTOINCREMENT sequence is raised in one
 * statement, so concurrent reservations never overlap, and an id reserved for a creation that is then
 * refused stays unused, as a rolled-back insert's would. Ids stay inside the shard's block (id-ranges.ts).
 */
export async function reserveSubmissionIds(db: Db, count: number): Promise<number[]> {
  // Every shard gets its sequence rows with its id block; a database without one starts from its rows.
  await db.run(
    sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'submissions', coalesce((SELECT max(id) FROM submissions), 0) WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'submissions')`,
  );
  const row = await db.get<{ seq: number }>(sql`UPDATE sqlite_sequence SET seq = seq + ${count} WHERE name = 'submissions' RETURNING seq`);
  if (!row) throw new Error('The submissions id sequence could not be raised.');
  return Array.from({ length: count }, (_, i) => row.seq - count + 1 + i);
}

/**
 * The submissions of a create request in multi-row inserts, each within D1's bound parameters, in order
 * (ids follow it), written as SQL text (row-inserts.ts): drizzle's insert builder was most of a bulk
 * create's CPU (docs/decisions.md › Issue 30).
 */
export function insertSubmissionsStatements(db: Db, rows: readonly NewSubmission[]) {
  return insertRows(db, submissions, rows);
}

type NewSubmitterOf = { submissionSlug: string; row: Omit<NewSubmitter, 'submissionId'> };

/** Inserts a submitter of a submission created in the same batch, found by the submission's slug. */
export function insertSubmitterStatement(db: Db, submissionSlug: string, row: Omit<NewSubmitter, 'submissionId'>) {
  return db.insert(submitters).values({ ...row, submissionId: sql`(SELECT id FROM submissions WHERE slug = ${submissionSlug})` });
}

/** insertSubmitterStatement for the submitters of a create request, as insertSubmissionsStatements does. */
export function insertSubmittersStatements(db: Db, rows: readonly NewSubmitterOf[]) {
  return insertRows(
    db,
    submitters,
    rows.map(({ submissionSlug, row }) => ({ ...row, submissionId: idBySlug('submissions', submissionSlug) })),
  );
}

export type SubmissionEventRow = {
  accountId: number;
  action: SubmissionEventAction;
  ip?: string | null;
  userAgent?: string | null;
  data?: Record<string, unknown>;
  at?: string;
};

/** How many trail entries of `action` a submitter has in a submission (the signer-route caps count these). */
export async function countSubmitterTrail(db: Db, submissionId: number, submitterId: number, action: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(submissionEvents)
    .where(
      and(
        eq(submissionEvents.submissionId, submissionId),
        eq(submissionEvents.submitterId, submitterId),
        eq(submissionEvents.action, action),
      ),
    )
    .get();
  return row?.n ?? 0;
}

/** A submission's own trail; ids may be given, or slugs of rows written earlier in the same batch. */
export function insertSubmissionEventStatement(
  db: Db,
  ref: TrailRef['ref'],
  submitterRef: TrailRef['submitterRef'],
  row: SubmissionEventRow,
) {
  return db.insert(submissionEvents).values(trailValues({ ref, submitterRef, row }, subqueryBySlug));
}

type TrailRef = {
  ref: { submissionId: number } | { submissionSlug: string };
  submitterRef: { submitterId: number } | { submitterSlug: string } | null;
  row: SubmissionEventRow;
};

/** A statement's own subquery for the id of a row written earlier in the batch. */
const subqueryBySlug = (table: 'submissions' | 'submitters', slug: string) =>
  table === 'submissions' ? sql`(SELECT id FROM submissions WHERE slug = ${slug})` : sql`(SELECT id FROM submitters WHERE slug = ${slug})`;

/**
 * A trail row's values: ids given, or found by the slugs of rows written earlier in the batch, as a drizzle
 * subquery (one-row inserts) or an insertRows value (`idBySlug`, multi-row inserts).
 */
function trailValues<Id>({ ref, submitterRef, row }: TrailRef, bySlug: (table: 'submissions' | 'submitters', slug: string) => Id) {
  const submissionId = 'submissionId' in ref ? ref.submissionId : bySlug('submissions', ref.submissionSlug);
  const submitterId =
    submitterRef === null
      ? null
      : 'submitterId' in submitterRef
        ? submitterRef.submitterId
        : bySlug('submitters', submitterRef.submitterSlug);
  return {
    accountId: row.accountId,
    submissionId,
    submitterId,
    action: row.action,
    ip: row.ip ?? null,
    userAgent: row.userAgent ?? null,
    data: row.data ?? {},
    ...(row.at ? { createdAt: row.at } : {}),
  };
}

/**
 * insertSubmissionEventStatement for many rows, in order (ids follow it), as multi-row inserts within
 * D1's bound parameters (row-inserts.ts); every row must give `at`.
 */
export function insertSubmissionEventsStatements(db: Db, rows: TrailRef[]) {
  return insertRows(
    db,
    submissionEvents,
    rows.map((r) => trailValues(r, idBySlug)),
  );
}

type ResolvedEvent = {
  event: EventName;
  data: Record<string, unknown>;
  refs: {
    submissionIds?: Record<string, string>;
    submitterIds?: Record<string, string>;
    submittersArray?: { path: string; submissionSlug: string };
  };
};

/** The submitters list of a submission.* payload, read in SQL from the rows written earlier in the batch. */
const SUBMITTERS_ARRAY = `(
      SELECT json_group_array(json_object('id', id, 'uuid', uuid, 'email', email, 'name', name, 'role', role, 'status', status, 'external_id', external_id))
      FROM (SELECT * FROM submitters WHERE submission_id = (SELECT id FROM submissions WHERE slug = ?) ORDER BY position, id)
    )`;

function resolvedEventRow(accountId: number, { event, data, refs }: ResolvedEvent) {
  // Capped like every outbox write (outboxInsert); the submitters list filled in below is at most 50 rows.
  let text = 'json(?)';
  const params: unknown[] = [JSON.stringify(capEventData(data))];
  for (const [path, slug] of Object.entries(refs.submissionIds ?? {})) {
    text = `json_set(${text}, ?, (SELECT id FROM submissions WHERE slug = ?))`;
    params.push(path, slug);
  }
  for (const [path, slug] of Object.entries(refs.submitterIds ?? {})) {
    text = `json_set(${text}, ?, (SELECT id FROM submitters WHERE slug = ?))`;
    params.push(path, slug);
  }
  if (refs.submittersArray) {
    text = `json_set(${text}, ?, ${SUBMITTERS_ARRAY})`;
    params.push(refs.submittersArray.path, refs.submittersArray.submissionSlug);
  }
  return { accountId, event, data: new SqlValue(text, params) };
}

/**
 * Outbox events of one account whose payloads need ids of rows inserted earlier in the same batch, in
 * order (ids follow it), as multi-row inserts (row-inserts.ts). `submissionIds` and `submitterIds` map
 * JSON paths in `data` to the slug of the row whose id goes there; `submittersArray` fills a path with
 * the submission's submitters as the submission.* payload lists them.
 */
export function insertResolvedEventsStatements(db: Db, accountId: number, rows: ResolvedEvent[]) {
  return insertRows(
    db,
    events,
    rows.map((row) => resolvedEventRow(accountId, row)),
  );
}

/**
 * Moves a submission from one of `from` to a new state, only if it is still in one of them: a guard
 * against two requests changing the same submission at once (the loser's batch changes nothing).
 */
export function transitionSubmissionStatement(db: Db, id: number, from: readonly string[], values: Partial<NewSubmission>) {
  return db
    .update(submissions)
    .set(values)
    .where(and(eq(submissions.id, id), inList(submissions.status, from)));
}

export function updateSubmitterStatement(db: Db, id: number, values: Partial<NewSubmitter>) {
  return db.update(submitters).set(values).where(eq(submitters.id, id));
}

/**
 * A submitter's completion checks its premise inside its own batch: the submission is touched only
 * while exactly `remaining` of its submitters have not completed, counting the one this batch
 * completes. A completion that raced another one (both read the other as pending) fails here under
 * ChangeSet.guarded, rolls back and is recomputed from the rows as they are now, so the last
 * completion always sees itself as the last (issue 21 › 2).
 */
export function completionPremiseStatement(db: Db, submissionId: number, remaining: number, at: string) {
  return db
    .update(submissions)
    .set({ updatedAt: at })
    .where(
      and(
        eq(submissions.id, submissionId),
        sql`(SELECT count(*) FROM ${submitters} WHERE ${submitters.submissionId} = ${submissionId} AND ${submitters.status} <> 'completed') = ${remaining}`,
      ),
    );
}

/**
 * Pending submissions whose every submitter has completed and that wait for no witness (a template
 * role named "Witness" with nobody in it yet): the state the completion race could leave before
 * issue 21. Read through the pending-only index, oldest first.
 */
export async function listCompletableSubmissions(db: Db, limit: number): Promise<Submission[]> {
  return db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.status, 'pending'),
        // A moving account's rows are fenced: acting on them would fail run after run and hold up the
        // accounts behind them in the batch (src/db/fences.ts); its new shard acts on them after the move.
        notFenced(submissions.accountId),
        sql`EXISTS (SELECT 1 FROM ${submitters} WHERE ${submitters.submissionId} = ${submissions.id})`,
        sql`NOT EXISTS (SELECT 1 FROM ${submitters} WHERE ${submitters.submissionId} = ${submissions.id} AND ${submitters.status} <> 'completed')`,
        sql`NOT EXISTS (SELECT 1 FROM ${templateVersions} v, json_each(v.snapshot, '$.submitters') r
              WHERE v.template_id = ${submissions.templateId} AND v.version = ${submissions.templateVersion}
                AND lower(trim(json_extract(r.value, '$.name'))) = 'witness'
                AND NOT EXISTS (SELECT 1 FROM ${submitters} w WHERE w.submission_id = ${submissions.id} AND w.role_uuid = json_extract(r.value, '$.uuid')))`,
      ),
    )
    .orderBy(asc(submissions.id))
    .limit(limit);
}

/** Like transitionSubmissionStatement, for a submitter's status. */
export function transitionSubmitterStatement(db: Db, id: number, from: readonly string[], values: Partial<NewSubmitter>) {
  return db
    .update(submitters)
    .set(values)
    .where(and(eq(submitters.id, id), inList(submitters.status, from)));
}

/** Records a signer's acceptance of the electronic-records disclosure, only if none is recorded yet. */
export function acceptDisclosureStatement(db: Db, id: number, version: string, at: string) {
  return db
    .update(submitters)
    .set({ disclosureVersion: version, disclosureAcceptedAt: at, updatedAt: at })
    .where(and(eq(submitters.id, id), isNull(submitters.disclosureAcceptedAt)));
}

export async function listSubmissionEvents(db: Db, submissionId: number): Promise<SubmissionEvent[]> {
  return db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, submissionId)).orderBy(asc(submissionEvents.id));
}

export type SubmissionFilters = {
  templateId?: number;
  status?: string;
  q?: string;
  externalId?: string;
  slug?: string;
  templateFolder?: string;
  archived: boolean;
  createdAfter?: string;
  createdBefore?: string;
};

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listSubmissionsPage(
  db: Db,
  accountId: number,
  filters: SubmissionFilters,
  window: CursorWindow,
): Promise<Submission[]> {
  const { where, orderBy } = cursorConditions(submissions.id, window);
  const like = filters.q ? `%${escapeLike(filters.q)}%` : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(submissions.accountId, accountId),
    filters.archived ? isNotNull(submissions.archivedAt) : isNull(submissions.archivedAt),
    // Erased submissions are not listed (issue 33 › 5); GET of one answers 410.
    isNull(submissions.erasedAt),
    filters.templateId !== undefined ? eq(submissions.templateId, filters.templateId) : undefined,
    filters.status !== undefined ? eq(submissions.status, filters.status as Submission['status']) : undefined,
    filters.slug !== undefined ? eq(submissions.slug, filters.slug) : undefined,
    filters.createdAfter !== undefined ? gte(submissions.createdAt, filters.createdAfter) : undefined,
    filters.createdBefore !== undefined ? lt(submissions.createdAt, filters.createdBefore) : undefined,
    filters.templateFolder !== undefined
      ? sql`${submissions.templateId} IN (SELECT id FROM templates WHERE account_id = ${accountId} AND lower(folder_name) = lower(${filters.templateFolder}))`
      : undefined,
    filters.externalId !== undefined
      ? sql`EXISTS (SELECT 1 FROM submitters s WHERE s.submission_id = ${submissions.id} AND s.external_id = ${filters.externalId})`
      : undefined,
    like !== undefined
      ? sql`EXISTS (SELECT 1 FROM submitters s WHERE s.submission_id = ${submissions.id} AND (s.name LIKE ${like} ESCAPE '\\' OR s.email LIKE ${like} ESCAPE '\\' OR s.phone LIKE ${like} ESCAPE '\\'))`
      : undefined,
    ...where,
  ];
  return db
    .select()
    .from(submissions)
    .where(and(...conditions))
    .orderBy(orderBy)
    .limit(window.take);
}

export type SubmitterFilters = {
  submissionId?: number;
  externalId?: string;
  q?: string;
  completedAfter?: string;
  completedBefore?: string;
};

export async function listSubmittersPage(db: Db, accountId: number, filters: SubmitterFilters, window: CursorWindow): Promise<Submitter[]> {
  const { where, orderBy } = cursorConditions(submitters.id, window);
  const like = filters.q ? `%${escapeLike(filters.q)}%` : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(submitters.accountId, accountId),
    filters.submissionId !== undefined ? eq(submitters.submissionId, filters.submissionId) : undefined,
    filters.externalId !== undefined ? eq(submitters.externalId, filters.externalId) : undefined,
    filters.completedAfter !== undefined ? gte(submitters.completedAt, filters.completedAfter) : undefined,
    filters.completedBefore !== undefined ? lte(submitters.completedAt, filters.completedBefore) : undefined,
    // Signers of erased submissions are not listed (issue 33 › 5).
    sql`${submitters.submissionId} NOT IN (SELECT id FROM submissions WHERE account_id = ${accountId} AND erased_at IS NOT NULL)`,
    like !== undefined
      ? or(
          sql`${submitters.name} LIKE ${like} ESCAPE '\\'`,
          sql`${submitters.email} LIKE ${like} ESCAPE '\\'`,
          sql`${submitters.phone} LIKE ${like} ESCAPE '\\'`,
        )
      : undefined,
    ...where,
  ];
  return db
    .select()
    .from(submitters)
    .where(and(...conditions))
    .orderBy(orderBy)
    .limit(window.take);
}

/** `SELECT count(*)` of the account's submissions since `since`, unexecuted: the monthly plan limit's count. */
export function submissionsSinceCountQuery(db: Db, accountId: number, since: string) {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(submissions)
    .where(and(eq(submissions.accountId, accountId), gte(submissions.createdAt, since)));
}

/** Submissions created in the account since `since`: the monthly plan limit counts these. */
export async function countSubmissionsSince(db: Db, accountId: number, since: string): Promise<number> {
  const [row] = await submissionsSinceCountQuery(db, accountId, since);
  return row?.n ?? 0;
}

/** Pending submissions whose deadline passed, oldest deadline first, at most `limit` (the expiry sweep). */
export async function listDueSubmissions(db: Db, nowIso: string, limit: number): Promise<Submission[]> {
  return db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.status, 'pending'),
        isNotNull(submissions.expireAt),
        lte(submissions.expireAt, nowIso),
        notFenced(submissions.accountId),
      ),
    )
    .orderBy(asc(submissions.expireAt))
    .limit(limit);
}

/** Whether any submission (archived ones included) was made from the template: permanent delete is refused then. */
export async function templateHasSubmissions(db: Db, templateId: number): Promise<boolean> {
  const row = await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.templateId, templateId)).limit(1).get();
  return row !== undefined;
}

/**
 * Which submissions a scope statement reads, as a condition on a submission id column: `inList` for a
 * list page, `eq` with a scalar subquery (`submissionIdOf`, …) for one submission named in SQL.
 */
export type OfSubmissions = (submissionId: Column) => SQL;

/** The submitters of the submissions, in each one's order, as a statement (for a batch). */
export function submittersOfQuery(db: Db, of: OfSubmissions) {
  return db
    .select()
    .from(submitters)
    .where(of(submitters.submissionId))
    .orderBy(asc(submitters.submissionId), asc(submitters.position), asc(submitters.id));
}

/** One submission's id as SQL, a scalar subquery (submissionIdOf, …), for the statements that read it. */
export type SubmissionRef = SQL;

/** The id of the account's submission `ref` (its id or slug), as a scalar subquery; NULL when there is none. */
export function submissionIdOf(db: Db, accountId: number, ref: string | number): SQL {
  return sql`(${db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.accountId, accountId), submissionRefCondition(ref)))})`;
}

/** The id of the submission of the account's submitter `ref` (its id or slug), as a scalar subquery. */
export function submissionIdOfSubmitter(db: Db, accountId: number, ref: string | number): SQL {
  return sql`(${db
    .select({ id: submitters.submissionId })
    .from(submitters)
    .where(and(eq(submitters.accountId, accountId), submitterRefCondition(ref)))})`;
}

/** Whether `submitter` is the one `ref` (an id or a slug) names, as submissionIdOfSubmitter reads `ref`. */
export function isSubmitterRef(submitter: Pick<Submitter, 'id' | 'slug'>, ref: string | number): boolean {
  const text = String(ref);
  return INTEGER_ID.test(text) ? submitter.id === Number(text) : submitter.slug === text;
}

/**
 * The statements reading one submission named by `id` (a scalar subquery) and its sources: the row,
 * and the template version it was made from, its template's public id and its documents (for a batch;
 * `sourcesFrom` reads the answers of `sources`).
 */
export function submissionWithSourcesQueries(db: Db, id: SQL) {
  const ofTheSubmission = (columns: SQL) => sql`(SELECT ${columns} FROM ${submissions} WHERE ${submissions.id} = ${id})`;
  const submission = db.select().from(submissions).where(eq(submissions.id, id));
  const sources = [
    db
      .select({ templateId: templateVersions.templateId, version: templateVersions.version, snapshot: templateVersions.snapshot })
      .from(templateVersions)
      .where(
        sql`(${templateVersions.templateId}, ${templateVersions.version}) = ${ofTheSubmission(sql`${submissions.templateId}, ${submissions.templateVersion}`)}`,
      ),
    db
      .select({ id: templates.id, publicId: templates.publicId })
      .from(templates)
      .where(eq(templates.id, ofTheSubmission(sql`${submissions.templateId}`))),
    db
      .select()
      .from(templateDocuments)
      .where(sql`${templateDocuments.id} IN (SELECT value FROM json_each(${ofTheSubmission(sql`${submissions.documentIds}`)}))`),
  ] as const;
  return { submission, sources };
}

type SourcesOf = Pick<Submission, 'templateId' | 'templateVersion' | 'documentIds'>;

/**
 * The statements reading the sources of several submissions, whatever their number: the template
 * versions they were made from, their templates' public ids and their documents (for a batch; `sourcesFrom`
 * reads the answers).
 */
export function sourcesQueries(db: Db, list: SourcesOf[]) {
  const pairs = [
    ...new Map(list.map((s) => [`${s.templateId}:${s.templateVersion}`, [s.templateId, s.templateVersion] as const])).values(),
  ];
  const templateIds = [...new Set(list.map((s) => s.templateId))];
  const documentIds = [...new Set(list.flatMap((s) => s.documentIds))];
  return [
    db
      .select({ templateId: templateVersions.templateId, version: templateVersions.version, snapshot: templateVersions.snapshot })
      .from(templateVersions)
      .where(pairInList(templateVersions.templateId, templateVersions.version, pairs)),
    db.select({ id: templates.id, publicId: templates.publicId }).from(templates).where(inList(templates.id, templateIds)),
    db.select().from(templateDocuments).where(inList(templateDocuments.id, documentIds)),
  ] as const;
}

export type SubmissionSources = {
  versions: { templateId: number; version: number; snapshot: TemplateSnapshot }[];
  publicIds: Map<number, string>;
  documents: Map<number, TemplateDocument>;
};

/** The answers of `sourcesQueries`, by what reads them. */
export function sourcesFrom(
  versions: SubmissionSources['versions'],
  publicIds: { id: number; publicId: string }[],
  documents: TemplateDocument[],
): SubmissionSources {
  return {
    versions,
    publicIds: new Map(publicIds.map((t) => [t.id, t.publicId])),
    documents: new Map(documents.map((d) => [d.id, d])),
  };
}
