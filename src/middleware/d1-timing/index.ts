// Development only (bench/shards): how long a request waited on D1, as `Server-Timing: d1;dur=<ms>`
// with the number of calls. Turned on by D1_TIMING=true together with ENVIRONMENT=development, like the
// other benchmark switches; otherwise the middleware does nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { isDevelopment } from '../../lib/environment';

type D1Time = { ms: number; calls: number };

const current = new AsyncLocalStorage<D1Time>();

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

function timedDatabase(binding: D1Database): D1Database {
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

function isD1Binding(name: string, value: unknown): value is D1Database {
  return (name === 'CONTROL_DB' || /^SHARD_\d+$/.test(name)) && typeof value === 'object' && value !== null;
}

export function d1Timing(): MiddlewareHandler<AppEnv> {
  return async function d1TimingMiddleware(c, next) {
    if (!isDevelopment(c.env) || c.env.D1_TIMING !== 'true') return next();
    const env: Record<string, unknown> = { ...c.env };
    for (const [name, value] of Object.entries(env)) if (isD1Binding(name, value)) env[name] = timedDatabase(value);
    c.env = env as AppEnv['Bindings'];
    const time: D1Time = { ms: 0, calls: 0 };
    await current.run(time, next);
    c.header('Server-Timing', `d1;dur=${time.ms.toFixed(1)};desc="${time.calls} calls"`, { append: true });
  };
}
