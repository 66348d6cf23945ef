// The statements of an account move (src/services/account-move.ts): the control pointer, the source's
// fence, and copying or deleting one account's rows of one tenant table in pages. Table and column names
// come from the drizzle schema (src/db/tenant-tables.ts), never from input.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, idBlocks, type Account } from '../schema/index';
import { FIRST_MOVE_BLOCK, idBlockStatements } from '../id-ranges';
import type { TenantTable } from '../tenant-tables';
import { nowIso } from '../../lib/time';

/** Rows read per page of a copy, and deleted per statement. */
export const MOVE_PAGE_ROWS = 100;
/** JSON text bound per INSERT: D1 caps a statement and its values well above this (docs/limits.md). */
const MAX_INSERT_JSON = 256 * 1024;

/**
 * `moving`: the copy runs, the pointer still names this shard. `moved`: the pointer names another shard;
 * the rows stay here for a grace period (requests that read the old pointer still find them). `deleted`:
 * the rows are gone; the fence stays so a very late request is refused rather than writing here.
 */
export type FenceReason = 'moving' | 'moved' | 'deleted';
// 'lifted' is never left behind: it exists only inside deletePage's batch.

const d1 = (db: Db): D1Database => db.$client;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Control: marks the account as moving to `target`. Only when no move runs, or when the running move
 * goes to the same shard (a re-run resumes it); undefined otherwise.
 */
export async function claimMove(
  control: Db,
  accountId: number,
  target: number,
  lease: string,
  expiresAt: string,
): Promise<Account | undefined> {
  const at = nowIso();
  const [row] = await control
    .update(accounts)
    .set({ movingToShard: target, moveLease: lease, moveLeaseExpiresAt: expiresAt, updatedAt: at })
    .where(
      and(
        eq(accounts.id, accountId),
        // A new move, or the same move whose last worker's lease lapsed (it crashed or was cut off).
        or(
          isNull(accounts.movingToShard),
          and(eq(accounts.movingToShard, target), or(isNull(accounts.moveLeaseExpiresAt), lt(accounts.moveLeaseExpiresAt, at))),
        ),
      ),
    )
    .returning();
  return row;
}

/** Control: extends the lease while `lease` still holds it; false when another call has taken the move over. */
export async function renewMoveLease(control: Db, accountId: number, lease: string, expiresAt: string): Promise<boolean> {
  const rows = await control
    .update(accounts)
    .set({ moveLeaseExpiresAt: expiresAt })
    .where(and(eq(accounts.id, accountId), eq(accounts.moveLease, lease)))
    .returning({ id: accounts.id });
  return rows.length > 0;
}

/** Control: the pointer flips to `target` and the move is over; undefined when no move to `target` ran. */
export async function flipShard(control: Db, accountId: number, target: number, lease: string): Promise<Account | undefined> {
  const [row] = await control
    .update(accounts)
    .set({ shard: target, movingToShard: null, moveLease: null, moveLeaseExpiresAt: null, updatedAt: nowIso() })
    .where(and(eq(accounts.id, accountId), eq(accounts.movingToShard, target), eq(accounts.moveLease, lease)))
    .returning();
  return row;
}

/**
 * Control: a fresh block of ids for `shard` above every block handed out so far; the shard's sequences
 * are raised to it (`raiseSequences`), so an account's new rows there sort after the rows it brought.
 */
export async function allocateIdBlock(control: Db, shard: number, reason: string): Promise<number> {
  const [row] = await control.insert(idBlocks).values({ shard, reason }).returning({ id: idBlocks.id });
  return FIRST_MOVE_BLOCK + row.id;
}

export async function raiseSequences(db: Db, block: number): Promise<void> {
  const binding = d1(db);
  await binding.batch(idBlockStatements(block).map((statement) => binding.prepare(statement)));
}

export async function fenceOf(db: Db, accountId: number): Promise<FenceReason | null> {
  const row = await d1(db)
    .prepare('SELECT reason FROM account_fences WHERE account_id = ?')
    .bind(accountId)
    .first<{ reason: FenceReason }>();
  return row?.reason ?? null;
}

function setFenceStatement(binding: D1Database, accountId: number, reason: FenceReason): D1PreparedStatement {
  return binding
    .prepare(
      'INSERT INTO account_fences (account_id, reason) VALUES (?, ?) ' +
        'ON CONFLICT (account_id) DO UPDATE SET reason = excluded.reason, created_at = excluded.created_at WHERE reason <> excluded.reason',
    )
    .bind(accountId, reason);
}

/** Fences the account on this shard: from its commit on, no write of the account's rows commits here. */
export async function setFence(db: Db, accountId: number, reason: FenceReason): Promise<void> {
  await setFenceStatement(d1(db), accountId, reason).run();
}

/** Accounts fenced `moved` here since before `before` (ISO time), oldest first: their rows can go. */
export async function movedAccountsDue(db: Db, before: string, limit: number): Promise<number[]> {
  const { results } = await d1(db)
    .prepare("SELECT account_id FROM account_fences WHERE reason = 'moved' AND created_at <= ? ORDER BY created_at LIMIT ?")
    .bind(before, limit)
    .all<{ account_id: number }>();
  return results.map((row) => row.account_id);
}

export async function removeFence(db: Db, accountId: number): Promise<void> {
  await d1(db).prepare('DELETE FROM account_fences WHERE account_id = ?').bind(accountId).run();
}

/** One page of the account's rows of `table` after `afterId`, in id order, every column. */
export async function readPage(db: Db, table: TenantTable, accountId: number, afterId: number): Promise<Record<string, unknown>[]> {
  const columns = table.columns.map(quote).join(', ');
  const { results } = await d1(db)
    .prepare(`SELECT ${columns} FROM ${quote(table.name)} WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?`)
    .bind(accountId, afterId, MOVE_PAGE_ROWS)
    .all<Record<string, unknown>>();
  return results;
}

/**
 * Inserts rows as they were read, ids included, in one batch (one transaction). Each statement binds one
 * JSON array that `json_each` expands, whatever the number of columns (src/db/bound-parameters.ts).
 */
export async function insertRows(db: Db, table: TenantTable, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const binding = d1(db);
  const columns = table.columns.map(quote).join(', ');
  const values = table.columns.map((name) => `json_extract(value, '$.${quote(name).replace(/'/g, "''")}')`).join(', ');
  const sql = `INSERT INTO ${quote(table.name)} (${columns}) SELECT ${values} FROM json_each(?)`;
  const statements: D1PreparedStatement[] = [];
  let chunk: string[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length) statements.push(binding.prepare(sql).bind(`[${chunk.join(',')}]`));
    chunk = [];
    size = 0;
  };
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (size + json.length > MAX_INSERT_JSON) flush();
    chunk.push(json);
    size += json.length + 1;
  }
  flush();
  await binding.batch(statements);
}

/** How many rows of the account each table holds here, by table name. */
export async function countRows(db: Db, tables: readonly TenantTable[], accountId: number): Promise<Map<string, number>> {
  const binding = d1(db);
  const results = await binding.batch<{ n: number }>(
    tables.map((table) => binding.prepare(`SELECT count(*) AS n FROM ${quote(table.name)} WHERE account_id = ?`).bind(accountId)),
  );
  return new Map(tables.map((table, i) => [table.name, results[i].results[0]?.n ?? 0]));
}

/**
 * Deletes up to one page of the account's rows of `table`, newest first (a row before the rows it
 * references). With `fenced`, only while the shard's fence still says so: the batch lifts that fence
 * (reason `lifted`, which the triggers let through), deletes, and sets it back, so the delete is the only
 * write of the account that gets past it — and a fence changed meanwhile (the account moving back here)
 * makes it delete nothing. Without, the shard must hold no fence for the account. Returns the rows deleted.
 */
export async function deletePage(db: Db, table: TenantTable, accountId: number, fenced: FenceReason | null): Promise<number> {
  const binding = d1(db);
  const name = quote(table.name);
  // A subquery, not a bound list: two parameters whatever the page size.
  const inPage = `IN (SELECT id FROM ${name} WHERE account_id = ? ORDER BY id DESC LIMIT ?)`;
  if (!fenced) {
    const result = await binding.prepare(`DELETE FROM ${name} WHERE id ${inPage}`).bind(accountId, MOVE_PAGE_ROWS).run();
    return result.meta.changes ?? 0;
  }
  const results = await binding.batch([
    binding.prepare("UPDATE account_fences SET reason = 'lifted' WHERE account_id = ? AND reason = ?").bind(accountId, fenced),
    binding
      .prepare(
        `DELETE FROM ${name} WHERE id ${inPage} AND EXISTS (SELECT 1 FROM account_fences WHERE account_id = ? AND reason = 'lifted')`,
      )
      .bind(accountId, MOVE_PAGE_ROWS, accountId),
    binding.prepare("UPDATE account_fences SET reason = ? WHERE account_id = ? AND reason = 'lifted'").bind(fenced, accountId),
  ]);
  return results[1].meta.changes ?? 0;
}

/** Moves the fence from `from` to `to`, only if it still says `from`; whether it did. */
export async function advanceFence(db: Db, accountId: number, from: FenceReason, to: FenceReason): Promise<boolean> {
  const result = await d1(db)
    .prepare('UPDATE account_fences SET reason = ?, created_at = ? WHERE account_id = ? AND reason = ?')
    .bind(to, nowIso(), accountId, from)
    .run();
  return (result.meta.changes ?? 0) > 0;
}
