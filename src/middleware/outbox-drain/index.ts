// After a successful mutating request, asks the queue to fan out the event outbox, so webhooks go out
// within seconds rather than at the next cron minute. The request never waits for it.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { requestDrain } from '../../services/webhooks/queue';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type OutboxDrainOptions = {
  methods?: ReadonlySet<string>;
};

export function outboxDrain(options: OutboxDrainOptions = {}): MiddlewareHandler<AppEnv> {
  const methods = options.methods ?? MUTATING;
  return async function outboxDrainMiddleware(c, next) {
    await next();
    if (!methods.has(c.req.method) || c.res.status >= 400) return;
    // A lost message only delays events until the cron drain (src/scheduled).
    c.executionCtx.waitUntil(
      requestDrain(c.env.WEBHOOK_QUEUE).catch((err) => console.error(`[${c.var.requestId}] outbox drain request failed`, err)),
    );
  };
}
