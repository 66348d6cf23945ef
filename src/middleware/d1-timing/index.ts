// Development only (bench/shards): how long a request waited on D1, as `Server-Timing: d1;dur=<ms>`
// with the number of calls. Turned on by D1_TIMING=true together with ENVIRONMENT=development, like the
// other benchmark switches; otherwise the middleware does nothing.
import type { MiddlewareHandler } from 'hono';
import { d1TimingOn, timedDatabase, withD1Time, type D1Time } from '../../db/d1-timing';
import type { AppEnv } from '../../env';

function isD1Binding(name: string, value: unknown): value is D1Database {
  return (name === 'CONTROL_DB' || /^SHARD_\d+$/.test(name)) && typeof value === 'object' && value !== null;
}

export function d1Timing(): MiddlewareHandler<AppEnv> {
  return async function d1TimingMiddleware(c, next) {
    if (!d1TimingOn(c.env)) return next();
    const env: Record<string, unknown> = { ...c.env };
    for (const [name, value] of Object.entries(env)) if (isD1Binding(name, value)) env[name] = timedDatabase(value);
    c.env = env as AppEnv['Bindings'];
    const time: D1Time = { ms: 0, calls: 0 };
    await withD1Time(time, next);
    c.header('Server-Timing', `d1;dur=${time.ms.toFixed(1)};desc="${time.calls} calls"`, { append: true });
  };
}
