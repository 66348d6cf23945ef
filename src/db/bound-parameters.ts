// Keeps every statement inside D1's bound-parameter limit: lists are bound as one JSON parameter, and
// multi-row inserts are split so that each statement binds at most the limit.
import { getTableColumns, sql, type Column, type SQL, type Table } from 'drizzle-orm';

/** D1 binds at most 100 parameters per statement (developers.cloudflare.com/d1/platform/limits/). */
export const MAX_BOUND_PARAMETERS = 100;

/**
 * `column IN (…values…)` for a list of any length. drizzle's `inArray` binds one parameter per value,
 * so a page of 101 ids fails with "too many SQL variables"; here the list is one JSON array parameter
 * that SQLite's `json_each` expands, and the column's index is still used for the lookups.
 */
export function inList(column: Column | SQL, values: readonly (number | string)[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/** `(a, b) IN (…pairs…)` for a list of any length, as one JSON parameter (see `inList`). */
export function pairInList(a: Column | SQL, b: Column | SQL, pairs: readonly (readonly [number | string, number | string])[]): SQL {
  return sql`(${a}, ${b}) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${JSON.stringify(pairs)}))`;
}

/** What a drizzle statement tells about itself before it runs. */
type Buildable = { toSQL(): { params: unknown[] } };

function boundParameters(statement: Buildable): number {
  return statement.toSQL().params.length;
}

/**
 * A multi-row insert as few statements as fit the limit. `build` makes the statement for some rows;
 * the first row's statement tells how many parameters a row binds (drizzle binds every column's value
 * or default), and a statement that still binds too many (rows of another shape) is halved again.
 */
export function insertInChunks<T, S extends Buildable>(rows: readonly T[], build: (rows: T[]) => S): S[] {
  if (rows.length === 0) return [];
  const perRow = Math.max(1, boundParameters(build([rows[0]])));
  const statements: S[] = [];
  const add = (chunk: T[]) => {
    const statement = build(chunk);
    if (chunk.length === 1 || boundParameters(statement) <= MAX_BOUND_PARAMETERS) {
      statements.push(statement);
      return;
    }
    const half = Math.ceil(chunk.length / 2);
    add(chunk.slice(0, half));
    add(chunk.slice(half));
  };
  const size = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / perRow));
  for (let i = 0; i < rows.length; i += size) add(rows.slice(i, i + size));
  return statements;
}

/**
 * `row` without its null values of columns that have no default: drizzle writes a missing value of such
 * a column as a literal NULL but binds an explicit null, so a row binds fewer parameters and more rows
 * fit one statement (insertInChunks). A null of a column with a default is kept (it would not be NULL).
 */
export function nullsUnbound<T extends Record<string, unknown>>(table: Table, row: T): T {
  const columns = getTableColumns(table) as Record<string, Column>;
  const kept = Object.entries(row).filter(([key, value]) => {
    const column = columns[key];
    return value !== null || !column || column.default !== undefined || column.defaultFn !== undefined || column.onUpdateFn !== undefined;
  });
  return Object.fromEntries(kept) as T;
}

/** Which values of `row` are set: rows of one shape bind as many parameters (see insertPacked). */
function shapeOf(row: Record<string, unknown>): string {
  return Object.keys(row)
    .filter((key) => row[key] !== undefined)
    .join();
}

/**
 * Like insertInChunks, for rows whose SQL values bind a fixed number of parameters (a subquery by one
 * slug), so that which values are set tells what a row binds: each shape is counted once on a one-row
 * statement and the rows are packed in order, without building every statement twice (drizzle's SQL
 * building is what a bulk create spends its CPU on, docs/decisions.md › Issue 30).
 */
export function insertPacked<T extends Record<string, unknown>, S extends Buildable>(rows: readonly T[], build: (rows: T[]) => S): S[] {
  const perShape = new Map<string, number>();
  const statements: S[] = [];
  let chunk: T[] = [];
  let bound = 0;
  for (const row of rows) {
    const shape = shapeOf(row);
    let n = perShape.get(shape);
    if (n === undefined) {
      n = boundParameters(build([row]));
      perShape.set(shape, n);
    }
    if (chunk.length > 0 && bound + n > MAX_BOUND_PARAMETERS) {
      statements.push(build(chunk));
      chunk = [];
      bound = 0;
    }
    chunk.push(row);
    bound += n;
  }
  if (chunk.length > 0) statements.push(build(chunk));
  return statements;
}
