// Keeps every statement inside D1's bound-parameter limit: lists are bound as one JSON parameter, and
// multi-row inserts are split so that rows × parameters per row stays within the limit.
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

/**
 * Splits the rows of a multi-row insert into `table` so that no statement binds more than the limit.
 * drizzle writes every column of the table for every row, binding at most one parameter each (a value,
 * a default, or a subquery such as "the id of the row with this slug"), so a row binds at most as many
 * parameters as the table has columns.
 */
export function rowsPerStatement<T>(table: Table, rows: readonly T[]): T[][] {
  const paramsPerRow = Object.keys(getTableColumns(table)).length;
  const size = Math.floor(MAX_BOUND_PARAMETERS / paramsPerRow);
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
