// Whether a request has written to D1 (issue 21 › 8): the idempotency middleware never frees the key of
// a request that committed, even when what follows the commit fails. Wraps the D1 binding the request
// sees; every statement that is not a plain read counts as a write once D1 has accepted it.
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { controlDb, shardBindings, shardDb } from '../../db/shards';

const READ_ONLY = /^\s*(select|pragma|explain)\b/i;

type Tracked = { statement: D1PreparedStatement; write: boolean };

export function trackCommits(db: D1Database, onCommit: () => void): D1Database {
  // Statements handed back to the caller are proxies; D1 itself must get its own objects back.
  const originals = new WeakMap<object, Tracked>();

  const wrap = (statement: D1PreparedStatement, write: boolean): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => wrap((value as D1PreparedStatement['bind']).apply(target, args), write);
        if (write && (prop === 'run' || prop === 'all' || prop === 'first' || prop === 'raw')) {
          return async (...args: unknown[]) => {
            const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            onCommit();
            return result;
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    originals.set(proxy, { statement, write });
    return proxy;
  };

  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query), !READ_ONLY.test(query));
      if (prop === 'batch') {
        return async <T>(statements: D1PreparedStatement[]) => {
          const tracked = statements.map((s) => originals.get(s) ?? { statement: s, write: true });
          const results = await target.batch<T>(tracked.map((t) => t.statement));
          if (tracked.some((t) => t.write)) onCommit();
          return results;
        };
      }
      if (prop === 'exec') {
        return async (query: string) => {
          const result = await target.exec(query);
          if (!READ_ONLY.test(query)) onCommit();
          return result;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Tracks every database the request can reach, the control database and each shard, and points the
 * request context's handles (`c.var.control`, `c.var.db`) at the tracked bindings.
 */
export function trackDatabaseCommits(c: Context<AppEnv>, onCommit: () => void): void {
  const tracked: Record<string, D1Database> = { CONTROL_DB: trackCommits(c.env.CONTROL_DB, onCommit) };
  shardBindings(c.env).forEach((binding, shard) => (tracked[`SHARD_${shard}`] = trackCommits(binding, onCommit)));
  c.env = { ...c.env, ...tracked };
  c.set('control', controlDb(c.env));
  // Only the handle: the queue producers in c.env already stamp the request's shard (useShard).
  if (c.var.shard !== undefined) c.set('db', shardDb(c.env, c.var.shard));
}
