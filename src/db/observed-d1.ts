// Per-request observers of D1 calls: whether a request has written (the idempotency middleware never
// frees the key of a request that committed) and, in development, how long it waited on D1 (bench/shards).
// Every database handle goes through one observed view of its binding (src/db/client.ts), which calls the
// observers of the request in progress, found through async context: no middleware swaps bindings, so
// the order in which handles and observers are set up does not matter.
import { AsyncLocalStorage } from 'node:async_hooks';

/** One call D1 answers: a statement's run/all/first/raw, a batch, or an exec. `write`: it may change rows. */
export type D1Call = { write: boolean };

/** Wraps one call: runs `work` (exactly once) and may act before or after it. */
export type D1Observer = <T>(call: D1Call, work: () => Promise<T>) => Promise<T>;

const requestObservers = new AsyncLocalStorage<D1Observer[]>();

/**
 * Runs `work` with its own list of observers, starting with those of the run around it (a request's, when
 * work inside it adds its own); calls outside any such run go unobserved.
 */
export function withD1Observers<T>(work: () => Promise<T>): Promise<T> {
  return requestObservers.run([...(requestObservers.getStore() ?? [])], work);
}

/** Adds an observer for the rest of the current run (withD1Observers). */
export function observeD1(observer: D1Observer): void {
  const observers = requestObservers.getStore();
  if (!observers) throw new Error('observeD1 needs withD1Observers around the request (src/app.ts).');
  observers.push(observer);
}

function observed<T>(call: D1Call, work: () => Promise<T>): Promise<T> {
  const observers = requestObservers.getStore();
  if (!observers?.length) return work();
  return observers.reduceRight<() => Promise<T>>((inner, observer) => () => observer(call, inner), work)();
}

const READ_ONLY = /^\s*(select|pragma|explain)\b/i;

/** Which statements may write, kept beside them: D1's `batch` accepts only its own statement objects, so they are patched in place. */
const writes = new WeakMap<D1PreparedStatement, boolean>();

function observedStatement(statement: D1PreparedStatement, write: boolean): D1PreparedStatement {
  writes.set(statement, write);
  const { bind, first, run, all, raw } = statement;
  const call = { write };
  return Object.assign(statement, {
    bind: (...values: unknown[]) => observedStatement(bind.apply(statement, values), write),
    first: (...args: [string?]) => observed(call, () => (first as (...a: unknown[]) => Promise<unknown>).apply(statement, args)),
    run: () => observed(call, () => run.apply(statement)),
    all: () => observed(call, () => all.apply(statement)),
    raw: (...args: unknown[]) => observed(call, () => (raw as (...a: unknown[]) => Promise<unknown>).apply(statement, args)),
  }) as D1PreparedStatement;
}

const views = new WeakMap<D1Database, D1Database>();

/** The observed view of a binding: one per binding and isolate, so the drizzle handle over it is built once. */
export function observedBinding(binding: D1Database): D1Database {
  let view = views.get(binding);
  if (!view) {
    view = new Proxy(binding, {
      get(target, property) {
        if (property === 'prepare') return (sql: string) => observedStatement(target.prepare(sql), !READ_ONLY.test(sql));
        if (property === 'batch') {
          return (statements: D1PreparedStatement[]) =>
            observed({ write: statements.some((s) => writes.get(s) ?? true) }, () => target.batch(statements));
        }
        if (property === 'exec') return (sql: string) => observed({ write: !READ_ONLY.test(sql) }, () => target.exec(sql));
        const value = Reflect.get(target, property);
        return typeof value === 'function' && property !== 'constructor' ? value.bind(target) : value;
      },
    });
    views.set(binding, view);
  }
  return view;
}
