// Accepting a bulk send (issue 33 › 3): every row checked against the template as a submission would
// be (create-submissions.ts › problemsOfEach), then either the row-numbered sentences (a dry run, or a
// 422 for an upload with any), or the rows stored in chunks of 100 and one queue message per chunk.
import { countSubmissionsSince } from '../../db/queries/submissions';
import { insertBulkSend } from '../../db/queries/bulk-sends';
import type { Account, BulkSend, BulkSendSettings } from '../../db/schema/index';
import type { ShardQueues } from '../../db/shards';
import { unprocessable } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { monthStartIso, planLimitReached } from '../plan-limits';
import { problemsOfEach, type CheckContext, type TemplateForSubmissions } from '../submissions/create-submissions';
import type { SubmissionInput } from '../submissions/submission-input';
import { docxDocumentsOf } from '../submissions/generated-documents';
import { bulkSubmitterLabel, resolveColumns, rowInput, type BulkTable } from './bulk-rows';

/** The limits of one bulk send (docs/security.md › Bulk send). */
export const BULK_LIMITS = { rows: 10_000, bytes: 5 * 1024 * 1024, chunkRows: 100, sentencesIn422: 100 } as const;

export type CheckedRow = { row: number; input: SubmissionInput };
export type CheckedBulk = { rows: CheckedRow[]; problems: string[]; invalidRows: number };

/**
 * The rows of `table` as inputs, each checked; sentences start with their row number. `planLimit`: also
 * name the rows the plan's monthly limit would refuse (a dry run's forecast; a send applies it per row
 * when the rows are created, so an upload is not refused for it).
 */
export async function checkBulkRows(
  ctx: CheckContext & { upgradeUrl: string },
  source: TemplateForSubmissions,
  table: BulkTable,
  settings: BulkSendSettings,
  planLimit: boolean,
): Promise<CheckedBulk> {
  if (table.rows.length === 0)
    throw unprocessable('There are no rows: the first line names the columns, each line after it is one submission.');
  if (table.rows.length > BULK_LIMITS.rows)
    throw unprocessable(
      `There are ${table.rows.length.toLocaleString('en-US')} rows; a bulk send takes at most ${BULK_LIMITS.rows.toLocaleString('en-US')}.`,
    );
  const variables = ctx.files
    ? new Set((await docxDocumentsOf(ctx.files, source.documents)).flatMap((d) => d.variables))
    : new Set<string>();
  const { columns, problems: headerProblems } = resolveColumns(source.template, variables, table.header);
  if (headerProblems.length) throw unprocessable(headerProblems.length === 1 ? headerProblems[0] : headerProblems);
  const roleOrder = source.template.submitters.map((r) => r.name);
  const read = table.rows.map((row) => ({ row: row.row, ...rowInput(columns, table.header, row, roleOrder, settings) }));
  const perRow = await problemsOfRows(ctx, source, read, planLimit);
  return {
    rows: read.map((r) => ({ row: r.row, input: r.input })),
    problems: perRow.flat(),
    invalidRows: perRow.filter((p) => p.length).length,
  };
}

/**
 * Each row's problems as a submission now (`problems` already found reading it come first and stand
 * alone), the plan's monthly limit applied per row: the rows past what remains of it fail with its sentence.
 */
export async function problemsOfRows(
  ctx: CheckContext & { upgradeUrl: string },
  source: TemplateForSubmissions,
  rows: (CheckedRow & { problems?: string[] })[],
  planLimit = true,
): Promise<string[][]> {
  const checked = await problemsOfEach(
    ctx,
    source,
    rows.map((r) => r.input),
    (i) => `Row ${rows[i].row}, `,
    bulkSubmitterLabel,
  );
  const perRow = rows.map((r, i) => (r.problems?.length ? [...r.problems] : checked[i]));
  const limit = planOf(ctx.account.plan).limits.submissionsPerMonth;
  if (planLimit && Number.isFinite(limit)) {
    let remaining = limit - (await countSubmissionsSince(ctx.db, ctx.account.id, monthStartIso()));
    const refusal = planLimitReached(ctx.account, 'submissionsPerMonth', ctx.upgradeUrl).message;
    perRow.forEach((problems, i) => {
      if (problems.length) return;
      if (remaining > 0) remaining -= 1;
      else problems.push(`Row ${rows[i].row}: ${refusal}`);
    });
  }
  return perRow;
}

/** A 422 naming the first problems (a dry run lists them all). */
export function rowsRefused(checked: CheckedBulk): Error {
  const shown = checked.problems.slice(0, BULK_LIMITS.sentencesIn422);
  const more = checked.problems.length - shown.length;
  const summary = `${checked.invalidRows.toLocaleString('en-US')} of ${checked.rows.length.toLocaleString('en-US')} rows cannot be sent; nothing was created.`;
  return unprocessable([
    summary,
    ...shown,
    ...(more > 0 ? [`… and ${more.toLocaleString('en-US')} more; send the same rows with "dry_run": true to see them all.`] : []),
  ]);
}

/** Stores the checked rows in chunks and queues one message per chunk; returns the bulk send. */
export async function acceptBulkSend(
  scope: { db: CheckContext['db']; queues: Pick<ShardQueues, 'messages'> },
  from: { account: Pick<Account, 'id'>; userId: number | null; templateId: number; linkBase: string },
  rows: CheckedRow[],
  settings: BulkSendSettings,
): Promise<BulkSend> {
  const chunks: CheckedRow[][] = [];
  for (let i = 0; i < rows.length; i += BULK_LIMITS.chunkRows) chunks.push(rows.slice(i, i + BULK_LIMITS.chunkRows));
  const send = await insertBulkSend(scope.db, {
    accountId: from.account.id,
    templateId: from.templateId,
    createdById: from.userId,
    settings,
    linkBase: from.linkBase,
    chunks,
  });
  // One sendBatch takes at most 100 messages; a lost message is re-queued by the cron (requeueStalledBulkSends).
  for (let i = 0; i < chunks.length; i += 100) {
    const part = chunks.slice(i, i + 100).map((_, j) => ({ body: { type: 'bulk_send' as const, bulkSendId: send.id, chunk: i + j } }));
    await scope.queues.messages.sendBatch(part);
  }
  return send;
}
