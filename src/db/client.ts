// One drizzle handle over the D1 binding; queries/ builds on it.
import type { SQLWrapper } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
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

/** One unexecuted statement, as `db.batch([...])` takes it; services pass these around to batch them. */
export type BatchStatement = BatchItem<'sqlite'>;

/** The statements of one batch: D1 takes at least one. */
export type Batch = [BatchStatement, ...BatchStatement[]];

/** A query embedded in another statement (the count a plan-limit guard compares). */
export type SubQuery = SQLWrapper;
