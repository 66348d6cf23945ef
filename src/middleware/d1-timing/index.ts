// Development only (bench/shards): how long a request waited on D1, as `Server-Timing: d1;dur=<ms>`
// with the number of calls. Turned on by D1_TIMING=true together with ENVIRONMENT=development, like the
// other benchmark switches; otherwise the middleware does nothing.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { d1TimingOn, timeD1Into, type D1Time } from '../../db/d1-timing';
import { observeD1 } from '../../db/observed-d1';

export function d1Timing(): MiddlewareHandler<AppEnv> {
  return async function d1TimingMiddleware(c, next) {
    if (!d1TimingOn(c.env)) return next();
    const time: D1Time = { ms: 0, calls: 0 };
    observeD1(timeD1Into(time));
    await next();
    c.header('Server-Timing', `d1;dur=${time.ms.toFixed(1)};desc="${time.calls} calls"`, { append: true });
  };
}
