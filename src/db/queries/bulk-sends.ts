// Bulk sends (issue 33 › 3): the send, its chunks of rows waiting for the queue, each processed row's
// outcome. Every read is scoped by account: another account's bulk send is not found.
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { inList, insertPacked } from '../bound-parameters';
import { cursorConditions } from '../cursor';
import {
  bulkSendChunks,
  bulkSendRows,
  bulkSends,
  type BulkRowStatus,
  type BulkSend,
  type BulkSendRow,
  type BulkSendSettings,
} from '../schema';
import type { CursorWindow } from '../../lib/pagination';

export type NewBulkSend = {
  accountId: number;
  templateId: number;
  createdById: number | null;
  settings: BulkSendSettings;
  linkBase: string;
  /** Each chunk's rows: `[{ row, input }]`. */
  chunks: { row: number; input: unknown }[][];
};

/** Stores the bulk send and all its chunks in one batch, one transaction (all or nothing); returns the send. */
export async function insertBulkSend(db: Db, send: NewBulkSend): Promise<BulkSend> {
  const total = send.chunks.reduce((sum, rows) => sum + rows.length, 0);
  const insertSend = db
    .insert(bulkSends)
    .values({
      accountId: send.accountId,
      templateId: send.templateId,
      createdById: send.createdById,
      settings: send.settings,
      linkBase: send.linkBase,
      total,
    })
    .returning();
  // The send just inserted: D1 runs a batch's statements in order in one transaction, so the account's
  // newest bulk send is this one (ids only grow within a shard, src/db/id-ranges.ts).
  const sendId = sql`(SELECT max(${bulkSends.id}) FROM ${bulkSends} WHERE ${bulkSends.accountId} = ${send.accountId})`;
  const chunkRows = send.chunks.map((rows, chunk) => ({ accountId: send.accountId, bulkSendId: sendId, chunk, rows }));
  const inserts = insertPacked(bulkSendChunks, chunkRows, (rows) => db.insert(bulkSendChunks).values(rows));
  const [[row]] = await db.batch([insertSend, ...inserts]);
  return row;
}

export async function findBulkSend(db: Db, accountId: number, id: number): Promise<BulkSend | undefined> {
  return db
    .select()
    .from(bulkSends)
    .where(and(eq(bulkSends.accountId, accountId), eq(bulkSends.id, id)))
    .get();
}

/** The bulk send a queue message names (the consumer knows no account yet). */
export async function findBulkSendById(db: Db, id: number): Promise<BulkSend | undefined> {
  return db.select().from(bulkSends).where(eq(bulkSends.id, id)).get();
}

export async function findBulkChunk(db: Db, bulkSendId: number, chunk: number) {
  return db
    .select()
    .from(bulkSendChunks)
    .where(and(eq(bulkSendChunks.bulkSendId, bulkSendId), eq(bulkSendChunks.chunk, chunk)))
    .get();
}

/**
 * Chunks not yet stored of bulk sends that made no progress since `before` (their queue message lost),
 * at most `limit`; their sends are marked as touched now, so the next sweep waits as long again.
 */
export async function takeStalledBulkChunks(
  db: Db,
  before: string,
  now: string,
  limit: number,
): Promise<{ bulkSendId: number; chunk: number }[]> {
  const rows = await db
    .select({ bulkSendId: bulkSendChunks.bulkSendId, chunk: bulkSendChunks.chunk })
    .from(bulkSendChunks)
    .innerJoin(bulkSends, eq(bulkSends.id, bulkSendChunks.bulkSendId))
    .where(and(sql`${bulkSendChunks.doneAt} IS NULL`, lt(bulkSends.updatedAt, before)))
    .orderBy(asc(bulkSendChunks.id))
    .limit(limit);
  const sends = [...new Set(rows.map((r) => r.bulkSendId))];
  if (sends.length) await db.update(bulkSends).set({ updatedAt: now }).where(inList(bulkSends.id, sends));
  return rows;
}

/**
 * Marks a chunk done and empties its rows: a guarded UPDATE (ChangeSet.guarded) that changes no row when
 * another delivery of the same chunk stored it first, so the batch it leads writes nothing.
 */
export function claimBulkChunkStatement(db: Db, bulkSendId: number, chunk: number, at: string) {
  return db
    .update(bulkSendChunks)
    .set({ doneAt: at, rows: [] })
    .where(and(eq(bulkSendChunks.bulkSendId, bulkSendId), eq(bulkSendChunks.chunk, chunk), sql`${bulkSendChunks.doneAt} IS NULL`));
}

/** A processed row: `slug` names the submission it created in the same batch; `errors` why it failed. */
export type BulkRowOutcome = { row: number; slug?: string; errors?: string[] };

/**
 * The chunk's outcomes (one multi-row insert, the created rows' submission ids read by slug from the
 * same batch) and the send's counts, finishing it when every row has one.
 */
export function recordBulkRowsStatements(db: Db, send: Pick<BulkSend, 'id' | 'accountId'>, outcomes: BulkRowOutcome[], at: string) {
  const created = outcomes.filter((o) => o.slug).length;
  const failed = outcomes.length - created;
  const rows = JSON.stringify(outcomes.map((o) => ({ row: o.row, slug: o.slug ?? null, errors: o.errors ?? [] })));
  return [
    // insert().select(sql) lists every column of the table in its order; a NULL id is the next one.
    db
      .insert(bulkSendRows)
      .select(sql`
      SELECT NULL, ${send.accountId}, ${send.id}, json_extract(o.value, '$.row'),
        CASE WHEN json_extract(o.value, '$.slug') IS NULL THEN 'failed' ELSE 'created' END,
        (SELECT s.id FROM submissions s WHERE s.slug = json_extract(o.value, '$.slug')),
        json_extract(o.value, '$.errors'), ${at}
      FROM json_each(${rows}) o`),
    db
      .update(bulkSends)
      .set({
        created: sql`${bulkSends.created} + ${created}`,
        failed: sql`${bulkSends.failed} + ${failed}`,
        status: sql`CASE WHEN ${bulkSends.created} + ${bulkSends.failed} + ${outcomes.length} >= ${bulkSends.total} THEN 'completed' ELSE 'processing' END`,
        completedAt: sql`CASE WHEN ${bulkSends.created} + ${bulkSends.failed} + ${outcomes.length} >= ${bulkSends.total} THEN ${at} END`,
        updatedAt: at,
      })
      .where(eq(bulkSends.id, send.id)),
  ];
}

export async function listBulkRows(
  db: Db,
  accountId: number,
  bulkSendId: number,
  status: BulkRowStatus | undefined,
  window: CursorWindow,
): Promise<BulkSendRow[]> {
  const { where, orderBy } = cursorConditions(bulkSendRows.id, window);
  return db
    .select()
    .from(bulkSendRows)
    .where(
      and(
        eq(bulkSendRows.accountId, accountId),
        eq(bulkSendRows.bulkSendId, bulkSendId),
        ...(status ? [eq(bulkSendRows.status, status)] : []),
        ...where,
      ),
    )
    .orderBy(orderBy)
    .limit(window.take);
}
