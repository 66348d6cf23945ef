// Keeps every statement inside D1's bound-parameter limit: lists are bound as one JSON parameter, and
// multi-row inserts are split so that each statement binds at most the limit.
import { sql, type Column, type SQL, type Table } from 'drizzle-orm';

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

/** Which values of `row` are set: rows of one shape bind as many parameters (see insertPacked). */
function shapeOf(row: Record<string, unknown>): string {
  return Object.keys(row)
    .filter((key) => row[key] !== undefined)
    .join();
}

/**
 * The parameters one row binds, by table and shape: the same for every statement an isolate builds for
 * that table, so counted once per isolate rather than by building a statement on every call (a document
 * row's page sizes, a bulk chunk's rows, are serialised to count them).
 */
const boundPerRow = new WeakMap<Table, Map<string, number>>();

/**
 * A multi-row insert into `table` as few statements as fit the limit, in order. `build` makes the
 * statement for some rows and binds nothing of its own beyond their values; rows whose SQL values bind a
 * fixed number of parameters (a subquery by one id) bind as many as the values they set tell (drizzle
 * binds every column's value or default), so each shape is counted once, on a one-row statement, and the
 * rows are packed without building any statement twice. The rows of a bulk create do without drizzle's
 * builder (row-inserts.ts).
 */
export function insertPacked<T extends Record<string, unknown>, S extends Buildable>(
  table: Table,
  rows: readonly T[],
  build: (rows: T[]) => S,
): S[] {
  let perShape = boundPerRow.get(table);
  if (!perShape) boundPerRow.set(table, (perShape = new Map()));
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
