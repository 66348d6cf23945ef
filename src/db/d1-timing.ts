// Development only (bench/shards, bench/webhooks): D1 bindings whose calls are counted and timed into
// the `D1Time` of the work running them (AsyncLocalStorage), for `Server-Timing: d1` on requests
// (middleware/d1-timing) and the webhook consumer's totals (GET /dev/events/d1-calls).
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDevelopment } from '../lib/environment';

export type D1Time = { ms: number; calls: number };

const current = new AsyncLocalStorage<D1Time>();

/** Runs `work` with its D1 calls (through timed views) added to `time`. */
export function withD1Time<T>(time: D1Time, work: () => Promise<T>): Promise<T> {
  return current.run(time, work);
}

async function measured<T>(work: () => Promise<T>): Promise<T> {
  const time = current.getStore();
  if (!time) return work();
  const start = performance.now();
  try {
    return await work();
  } finally {
    time.ms += performance.now() - start;
    time.calls += 1;
  }
}

/**
 * The statement itself, its methods timed in place: D1's `batch` accepts only its own statement objects,
 * so a wrapper object would not do.
 */
function timedStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const { bind, first, run, all, raw } = statement;
  return Object.assign(statement, {
    bind: (...values: unknown[]) => timedStatement(bind.apply(statement, values)),
    first: (...args: [string?]) => measured(() => (first as (...a: unknown[]) => Promise<unknown>).apply(statement, args)),
    run: () => measured(() => run.apply(statement)),
    all: () => measured(() => all.apply(statement)),
    raw: (...args: unknown[]) => measured(() => (raw as (...a: unknown[]) => Promise<unknown>).apply(statement, args)),
  }) as D1PreparedStatement;
}

/** One timed view per binding and isolate, so the drizzle handle over it is built once (src/db/client.ts). */
const views = new WeakMap<D1Database, D1Database>();

export function timedDatabase(binding: D1Database): D1Database {
  let view = views.get(binding);
  if (!view) {
    view = new Proxy(binding, {
      get(target, property) {
        if (property === 'prepare') return (sql: string) => timedStatement(target.prepare(sql));
        if (property === 'batch') return (statements: D1PreparedStatement[]) => measured(() => target.batch(statements));
        if (property === 'exec') return (sql: string) => measured(() => target.exec(sql));
        const value = Reflect.get(target, property);
        return typeof value === 'function' && property !== 'constructor' ? value.bind(target) : value;
      },
    });
    views.set(binding, view);
  }
  return view;
}

/** Whether D1 timing is switched on: D1_TIMING=true together with ENVIRONMENT=development. */
export function d1TimingOn(env: { ENVIRONMENT?: string; D1_TIMING?: string }): boolean {
  return isDevelopment(env) && env.D1_TIMING === 'true';
}

/** The webhook consumer's D1 calls in this isolate so far, when timing is on (bench/webhooks). */
export const webhookConsumerD1: D1Time = { ms: 0, calls: 0 };
