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

/**
 * The statements handed out, each with the one it stands for and whether it may write. They are proxies,
 * not patched in place: the binding below may itself be a proxy over its statements (test/fault-injection.ts),
 * and D1's `batch` wants its own objects back, so a batch gets the originals.
 */
const handedOut = new WeakMap<object, { statement: D1PreparedStatement; write: boolean }>();

const CALLS = new Set<PropertyKey>(['first', 'run', 'all', 'raw']);

function observedStatement(statement: D1PreparedStatement, write: boolean): D1PreparedStatement {
  const call = { write };
  const proxy = new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'bind')
        return (...values: unknown[]) => observedStatement(method.apply(target, values) as D1PreparedStatement, write);
      if (CALLS.has(property)) return (...args: unknown[]) => observed(call, () => method.apply(target, args) as Promise<unknown>);
      return method.bind(target);
    },
  });
  handedOut.set(proxy, { statement, write });
  return proxy;
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
          return (statements: D1PreparedStatement[]) => {
            const originals = statements.map((s) => handedOut.get(s) ?? { statement: s, write: true });
            return observed({ write: originals.some((o) => o.write) }, () => target.batch(originals.map((o) => o.statement)));
          };
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
