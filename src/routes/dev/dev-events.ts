// `POST /dev/events` (development only, like every /dev route): writes outbox rows as the API's writers
// do and asks the queue's consumer to drain them, or with `dispatch: "inline"` writes the events with their
// deliveries and sends the first attempts after the response (services/webhooks/immediate.ts), so webhooks
// can be exercised and benchmarked through `wrangler dev` (bench/webhooks). With `per_second` the request
// writes its `count` events one at a time at that rate, each as its own API write would (its own batch and
// drain request, or its own inline dispatch): a steady stream of events without an HTTP request per event,
// whose local cost (wrangler's proxy and the runtime's entry, ~2.6 ms of CPU a request on the 2-core
// machine, bench/webhooks/README.md) would otherwise share the one workerd thread with the pipeline being
// measured. `GET /dev/events/d1-calls` tells that benchmark how many D1 calls the webhook consumer and the
// inline dispatch after each POST made.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { webhookConsumerD1, webhookInlineD1 } from '../../db/d1-timing';
import { getAccount } from '../../db/queries/accounts';
import { useAccountScope } from '../../middleware/databases';
import { ApiError } from '../../lib/errors';
import { isEventName, type EventName } from '../../lib/events';
import { sampleEventData } from '../../services/webhooks/payloads';
import { outboxInsert } from '../../services/events/outbox';
import { dispatchAfterCommit, writeEventsWithDeliveries } from '../../services/webhooks/immediate';
import { requestDrain } from '../../services/webhooks/queue';

/** Events one request writes in one batch. */
const MAX_EVENTS = 1_000;
/** Events one request writes one at a time (`per_second`). */
const MAX_PACED_EVENTS = 10_000;
const MAX_PER_SECOND = 1_000;

type EventRows = { accountId: number; event: EventName; data: Record<string, unknown> }[];

/** Writes `rows` in one batch as an API write does: outbox rows and a drain request, or (inline) with their deliveries sent after the response. */
async function writeEvents(c: Context<AppEnv>, rows: EventRows, inline: boolean): Promise<void> {
  const { scope } = c.var;
  if (inline) {
    const written = await writeEventsWithDeliveries(scope.db, rows[0].accountId, rows);
    c.executionCtx.waitUntil(dispatchAfterCommit(scope, written));
    return;
  }
  const inserts = rows.map((row) => outboxInsert(scope.db, row));
  await scope.db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
  c.executionCtx.waitUntil(requestDrain(scope.queues.webhooks));
}

export function mountDevEvents(app: Hono<AppEnv>) {
  app.post('/events', async (c) => {
    const body = (await c.req.json().catch(() => null)) as {
      account_id?: unknown;
      event?: unknown;
      data?: unknown;
      count?: unknown;
      per_second?: unknown;
      dispatch?: unknown;
    } | null;
    const accountId = Number(body?.account_id);
    const event = String(body?.event ?? '');
    const count = body?.count === undefined ? 1 : Number(body.count);
    const perSecond = body?.per_second === undefined || body.per_second === null ? null : Number(body.per_second);
    const maxEvents = perSecond === null ? MAX_EVENTS : MAX_PACED_EVENTS;
    if (!Number.isInteger(accountId) || accountId < 1) throw new ApiError(422, 'account_id must be a positive integer.');
    if (!isEventName(event)) throw new ApiError(422, 'event must be a webhook event name.');
    if (!Number.isInteger(count) || count < 1 || count > maxEvents) throw new ApiError(422, `count must be between 1 and ${maxEvents}.`);
    if (perSecond !== null && !(perSecond > 0 && perSecond <= MAX_PER_SECOND)) {
      throw new ApiError(422, `per_second must be a number above 0 and at most ${MAX_PER_SECOND}.`);
    }
    const dataOf = () =>
      body?.data && typeof body.data === 'object'
        ? (body.data as Record<string, unknown>)
        : sampleEventData(event, new Date().toISOString());
    const account = await getAccount(c.var.control, accountId);
    if (!account) throw new ApiError(422, `There is no account ${accountId}.`);
    useAccountScope(c, account);
    const inline = body?.dispatch === 'inline';
    if (perSecond === null) {
      await writeEvents(
        c,
        Array.from({ length: count }, () => ({ accountId, event, data: dataOf() })),
        inline,
      );
    } else {
      // Each event due at its own time, written without waiting for the ones before it (as separate requests would be).
      const startedAt = Date.now();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < count; i += 1) {
        const wait = startedAt + (i * 1000) / perSecond - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        writes.push(writeEvents(c, [{ accountId, event, data: dataOf() }], inline));
      }
      await Promise.all(writes);
    }
    return c.json({ created: count }, 201);
  });
  /** With D1_TIMING=true: the webhook consumer's D1 calls in this isolate so far (bench/webhooks). */
  app.get('/events/d1-calls', (c) =>
    c.json({
      calls: webhookConsumerD1.calls,
      ms: Math.round(webhookConsumerD1.ms),
      inline: { calls: webhookInlineD1.calls, ms: Math.round(webhookInlineD1.ms) },
    }),
  );
}
