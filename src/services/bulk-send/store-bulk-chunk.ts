// Storing one chunk of a bulk send (the messages queue's `bulk_send` message): its rows checked again
// (the template, plan or brands may have changed since the upload), the valid ones created through
// createSubmissions with the chunk's claim and every row's outcome in the same D1 batch. A redelivered
// or concurrent message finds the chunk claimed and creates nothing (docs/decisions.md › Bulk send).
import {
  claimBulkChunkStatement,
  findBulkChunk,
  findBulkSendById,
  recordBulkRowsStatements,
  type BulkRowOutcome,
} from '../../db/queries/bulk-sends';
import { getAccount } from '../../db/queries/accounts';
import { activeDomainsOf } from '../../db/queries/custom-domains';
import type { BulkSend } from '../../db/schema/index';
import type { BatchStatement } from '../../db/client';
import type { ShardScope } from '../../db/shards';
import type { BulkChunkMessage } from '../../env';
import { ApiError } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { browserLauncher } from '../rendering/browser-launches';
import { ChangeSet } from '../submissions/change-set';
import {
  createSubmissions,
  templateForSubmissions,
  type CreateContext,
  type TemplateForSubmissions,
} from '../submissions/create-submissions';
import type { SubmissionInput } from '../submissions/submission-input';
import { problemsOfRows, type CheckedRow } from './start-bulk-send';

export type ChunkOutcome = 'stored' | 'already stored' | 'gone';

/** Stores the chunk the message names; running it again, or twice at once, stores it once. */
export async function storeBulkChunk(scope: ShardScope, message: BulkChunkMessage): Promise<ChunkOutcome> {
  const { db, env } = scope;
  const send = await findBulkSendById(db, message.bulkSendId);
  const chunk = send && (await findBulkChunk(db, send.id, message.chunk));
  if (!send || !chunk) return 'gone';
  if (chunk.doneAt) return 'already stored';
  const account = await getAccount(scope.control, send.accountId);
  if (!account) return 'gone';
  const at = nowIso();
  const ctx: CreateContext = {
    db,
    account,
    userId: send.createdById,
    serviceName: env.SERVICE_NAME,
    apiBase: env.APP_URL || send.linkBase,
    linkSecret: env.ENCRYPTION_KEY,
    requestBase: send.linkBase,
    upgradeUrl: `${(env.APP_URL || send.linkBase).replace(/\/+$/, '')}/settings/billing`,
    linkDomains: await activeDomainsOf(scope.control, account.id),
    messagesQueue: scope.queues.messages,
    sealingQueue: scope.queues.sealing,
    files: env.FILES,
    browser: browserLauncher(env, account.id),
    ip: null,
    userAgent: null,
  };
  const rows = chunk.rows as CheckedRow[];
  const claim = claimBulkChunkStatement(db, send.id, message.chunk, at);
  try {
    const { source, outcomes } = await checkedOutcomes(ctx, send, rows);
    const valid = rows.filter((_, i) => !outcomes[i].errors?.length);
    const records = (slugs: string[]) => {
      let next = 0;
      const named = outcomes.map((o) => (o.errors?.length ? o : { row: o.row, slug: slugs[next++] }));
      return recordBulkRowsStatements(db, send, named, at);
    };
    if (source && valid.length) {
      const inputs: SubmissionInput[] = valid.map((r) => r.input);
      await createSubmissions(ctx, source, inputs, 'bulk', { claim, records });
      return 'stored';
    }
    return await storeOutcomesOnly(db, claim, records([]));
  } catch (error) {
    if (isStoredAlready(error)) return 'already stored';
    throw error;
  }
}

/** The claim's stale guard failed: another delivery of this chunk stored it first (ChangeSet › guarded). */
function isStoredAlready(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/** A chunk that creates nothing: its claim and its rows' outcomes. */
async function storeOutcomesOnly(db: ShardScope['db'], claim: BatchStatement, records: BatchStatement[]): Promise<ChunkOutcome> {
  try {
    await new ChangeSet(db)
      .guarded(claim)
      .add(...records)
      .commit(undefined);
    return 'stored';
  } catch (error) {
    if (isStoredAlready(error)) return 'already stored';
    throw error;
  }
}

/** The template now, and each row's outcome before storing: its problems now, or none (it will be created). */
async function checkedOutcomes(
  ctx: CreateContext,
  send: BulkSend,
  rows: CheckedRow[],
): Promise<{ source?: TemplateForSubmissions; outcomes: BulkRowOutcome[] }> {
  let source: TemplateForSubmissions;
  try {
    source = await templateForSubmissions(ctx.db, ctx.account.id, send.templateId);
  } catch (error) {
    // The template was archived or emptied since the upload: every row fails with the same sentence.
    if (error instanceof ApiError) return { outcomes: rows.map((r) => ({ row: r.row, errors: [`Row ${r.row}: ${error.message}`] })) };
    throw error;
  }
  const problems = await problemsOfRows(ctx, source, rows);
  return { source, outcomes: rows.map((r, i) => ({ row: r.row, errors: problems[i] })) };
}

/**
 * After the queue's last delivery of a chunk failed: its rows are recorded as failed (nothing of them
 * was stored, each batch being all or nothing), so the bulk send completes and says which rows to send
 * again. A chunk stored meanwhile is left as it is.
 */
export async function failBulkChunk(scope: ShardScope, message: BulkChunkMessage, error: unknown): Promise<void> {
  const { db } = scope;
  const send = await findBulkSendById(db, message.bulkSendId);
  const chunk = send && (await findBulkChunk(db, send.id, message.chunk));
  if (!send || !chunk || chunk.doneAt) return;
  const at = nowIso();
  const reason = error instanceof ApiError ? error.message : 'the service could not store it';
  const outcomes = (chunk.rows as CheckedRow[]).map((r) => ({
    row: r.row,
    errors: [`Row ${r.row}: the submission could not be created (${reason}); send this row again.`],
  }));
  await storeOutcomesOnly(db, claimBulkChunkStatement(db, send.id, message.chunk, at), recordBulkRowsStatements(db, send, outcomes, at));
}
