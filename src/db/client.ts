// One drizzle handle over the D1 binding; queries/ builds on it.
import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';
import { observedBinding } from './observed-d1';

export type Db = ReturnType<typeof newDb>;

function newDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * Every handle reads and writes through the binding's observed view (src/db/observed-d1.ts). Building a handle walks the whole schema for the relational query builder (a measurable share of a
 * small request's CPU, bench/limits), and a handle holds no per-request state, so an isolate builds
 * one per binding and reuses it.
 */
const handles = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = handles.get(d1);
  if (!db) {
    db = newDb(observedBinding(d1));
    handles.set(d1, db);
  }
  return db;
}
