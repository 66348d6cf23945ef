// Multi-row INSERTs written as SQL text directly: the rows of a bulk create (submissions, submitters,
// members, trail, outbox events, invitations) are hundreds per request, and drizzle's insert builder
// maps and walks every value of every row as SQL chunks, which was most of the request's own CPU
// (docs/decisions.md › Issue 30). Values are still bound parameters, each statement within D1's limit.
import { getTableColumns, getTableName, SQL, type Column, type Table } from 'drizzle-orm';
import { MAX_BOUND_PARAMETERS } from './bound-parameters';
import type { BatchStatement, Db } from './client';

/** A value computed in SQL from bound parameters: `text` holds one `?` per parameter, in order. */
export class SqlValue {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

/** The id of a row inserted earlier in the same batch, found by its slug (both tables index `slug`). */
export function idBySlug(table: 'submissions' | 'submitters', slug: string): SqlValue {
  return new SqlValue(`(SELECT id FROM ${table} WHERE slug = ?)`, [slug]);
}

/** D1's longest SQL statement, in bytes (developers.cloudflare.com/d1/platform/limits/); our text is ASCII. */
const MAX_SQL_LENGTH = 100_000;

type ColumnOf = { key: string; quoted: string; column: Column };

const columnsOfTable = new WeakMap<Table, { name: string; columns: ColumnOf[] }>();

function tableInfo(table: Table) {
  let info = columnsOfTable.get(table);
  if (!info) {
    const columns = Object.entries(getTableColumns(table) as Record<string, Column>).map(([key, column]) => ({
      key,
      quoted: `"${column.name}"`,
      column,
    }));
    info = { name: `"${getTableName(table)}"`, columns };
    columnsOfTable.set(table, info);
  }
  return info;
}

/**
 * One row as SQL: the columns it writes and its `( … )` text as pieces, a string being SQL text and any
 * other piece a value to bind.
 */
type RowSql = { columns: string; pieces: unknown[]; length: number };

/** A value to bind, told apart from SQL text among a row's pieces. */
class Bound {
  constructor(readonly value: unknown) {}
}

/**
 * A row's values as drizzle's insert would write them: a column the row leaves out takes its `$defaultFn`
 * value or, without one, is left out of the statement (the table's own DEFAULT applies, or NULL); an
 * explicit null is a NULL literal; any other value is bound as the column maps it (JSON text, 0/1).
 */
function rowSql(columns: readonly ColumnOf[], row: Record<string, unknown>): RowSql {
  const names: string[] = [];
  const pieces: unknown[] = [];
  for (const { key, quoted, column } of columns) {
    let value = row[key];
    if (value === undefined) {
      if (column.defaultFn) value = column.defaultFn();
      else if (column.onUpdateFn) value = column.onUpdateFn();
      else continue;
    }
    pieces.push(names.length === 0 ? '(' : ', ');
    names.push(quoted);
    if (value === null) {
      pieces.push('NULL');
    } else if (value instanceof SqlValue) {
      const texts = value.text.split('?');
      if (texts.length !== value.params.length + 1) throw new Error(`The SQL of ${key} does not hold one ? per parameter.`);
      texts.forEach((text, i) => {
        if (i > 0) pieces.push(new Bound(value.params[i - 1]));
        pieces.push(text);
      });
    } else if (value instanceof SQL) {
      throw new Error(`insertRows takes SqlValue, not drizzle SQL, for ${key}.`);
    } else {
      pieces.push(new Bound(column.mapToDriverValue(value)));
    }
  }
  pieces.push(')');
  // At most its text, `?NNN` per parameter (rowText) and the `, ` before it.
  const length = pieces.reduce<number>((n, piece) => n + (piece instanceof Bound ? 4 : (piece as string).length), 2);
  return { columns: names.join(', '), pieces, length };
}

/** How many values of `row` a statement binding `numbers` would add (equal values share a number). */
function newValues(row: RowSql, numbers: ReadonlyMap<unknown, number>): number {
  const added = new Set<unknown>();
  for (const piece of row.pieces) if (piece instanceof Bound && !numbers.has(piece.value)) added.add(piece.value);
  return added.size;
}

/** `row` as text with ordered parameters (`?NNN`, D1 takes them), numbering its new values in `params`. */
function rowText(row: RowSql, numbers: Map<unknown, number>, params: unknown[]): string {
  let text = '';
  for (const piece of row.pieces) {
    if (!(piece instanceof Bound)) {
      text += piece as string;
      continue;
    }
    let n = numbers.get(piece.value);
    if (n === undefined) {
      params.push(piece.value);
      n = params.length;
      numbers.set(piece.value, n);
    }
    text += `?${n}`;
  }
  return text;
}

/**
 * One INSERT as D1 runs it, taken by `db.batch` beside drizzle's statements: drizzle's own raw query
 * (`db.run(sql)`) cannot be batched with parameters (its D1 batch looks for a prepared statement such a
 * query does not have), so this gives the batch what it asks of a statement: `_prepare()`, its SQL and
 * parameters, the D1 statement, and its result (the new ids with `RETURNING id`). Only for `db.batch`.
 */
class RowsInsert {
  constructor(
    private readonly d1: D1Database,
    private readonly query: { sql: string; params: unknown[] },
    private readonly returningId: boolean,
  ) {}

  _prepare(): this {
    return this;
  }

  getQuery() {
    return this.query;
  }

  /** As drizzle's builders tell their SQL (tests count the parameters so). */
  toSQL() {
    return this.query;
  }

  get stmt(): D1PreparedStatement {
    return this.d1.prepare(this.query.sql);
  }

  mapResult(result: D1Result): unknown {
    return this.returningId ? result.results : result;
  }
}

/**
 * `rows` of `table` as few INSERT statements as D1's bound parameters allow, in order (ids follow it):
 * consecutive rows that write the same columns share a statement, and equal values in it one parameter
 * (`?NNN`), so the account id, the date and the defaults every row repeats are bound once per statement.
 * `returningId`: each statement ends in `RETURNING id`, so the batch answers with the new ids
 * (ChangeSet.addMessage).
 */
export function insertRows(
  db: Db,
  table: Table,
  rows: readonly Record<string, unknown>[],
  options: { returningId?: boolean } = {},
): BatchStatement[] {
  const { name, columns } = tableInfo(table);
  const returningId = options.returningId ?? false;
  const statements: BatchStatement[] = [];
  let columnList = '';
  let texts: string[] = [];
  let params: unknown[] = [];
  let numbers = new Map<unknown, number>();
  let length = 0;
  const flush = () => {
    if (texts.length === 0) return;
    const sql = `INSERT INTO ${name} (${columnList}) VALUES ${texts.join(', ')}${returningId ? ' RETURNING "id"' : ''}`;
    // Not a drizzle class, but what drizzle's D1 batch calls of one (see RowsInsert).
    statements.push(new RowsInsert(db.$client, { sql, params }, returningId) as unknown as BatchStatement);
    texts = [];
    params = [];
    numbers = new Map();
    length = 0;
  };
  for (const row of rows) {
    const built = rowSql(columns, row);
    const full =
      built.columns !== columnList ||
      params.length + newValues(built, numbers) > MAX_BOUND_PARAMETERS ||
      length + built.length > MAX_SQL_LENGTH - name.length - columnList.length - 64;
    if (texts.length > 0 && full) flush();
    columnList = built.columns;
    length += built.length;
    texts.push(rowText(built, numbers, params));
    if (params.length > MAX_BOUND_PARAMETERS) throw new Error(`A row of ${name} binds more than ${MAX_BOUND_PARAMETERS} parameters.`);
  }
  flush();
  return statements;
}
