// After a successful mutating request, asks the queue to fan out the event outbox, so webhooks go out
// within seconds rather than at the next cron minute. The request never waits for it.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { requestDrain } from '../../services/webhooks/queue';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type OutboxDrainOptions = {
  methods?: ReadonlySet<string>;
  /**
   * Whether a successful change is worth waking the fan-out for; default always. The tenant API asks
   * only when the account has a live webhook endpoint: without one its events have nowhere to go,
   * and the cron's drain marks them dispatched within a minute. Nothing is lost by waiting, since an
   * endpoint only receives events that happened after it was created (services/webhooks/fan-out).
   */
  when?: (c: Context<AppEnv>) => boolean;
};

export function outboxDrain(options: OutboxDrainOptions = {}): MiddlewareHandler<AppEnv> {
  const methods = options.methods ?? MUTATING;
  return async function outboxDrainMiddleware(c, next) {
    await next();
    const scope = c.get('scope') as AppEnv['Variables']['scope'] | undefined;
    if (!scope || !methods.has(c.req.method) || c.res.status >= 400 || (options.when && !options.when(c))) return;
    // A lost message only delays events until the cron drain (src/scheduled).
    c.executionCtx.waitUntil(
      requestDrain(scope.queues.webhooks).catch((err) => console.error(`[${c.var.requestId}] outbox drain request failed`, err)),
    );
  };
}
