// `POST /dev/events` (development only, like every /dev route): writes outbox rows as the API's writers
// do and asks the queue's consumer to drain them, or with `dispatch: "inline"` writes the events with their
// deliveries and sends the first attempts after the response (services/webhooks/immediate.ts), so webhooks
// can be exercised and benchmarked through `wrangler dev` (bench/webhooks); `GET /dev/events/d1-calls` tells that benchmark how many D1 calls the webhook consumer and the inline
// dispatch after each POST made.
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { webhookConsumerD1, webhookInlineD1 } from '../../db/d1-timing';
import { getAccount } from '../../db/queries/accounts';
import { useAccountScope } from '../../middleware/databases';
import { ApiError } from '../../lib/errors';
import { isEventName } from '../../lib/events';
import { sampleEventData } from '../../services/webhooks/payloads';
import { outboxInsert } from '../../services/events/outbox';
import { dispatchAfterCommit, writeEventsWithDeliveries } from '../../services/webhooks/immediate';
import { requestDrain } from '../../services/webhooks/queue';

const MAX_EVENTS = 1_000;

export function mountDevEvents(app: Hono<AppEnv>) {
  app.post('/events', async (c) => {
    const body = (await c.req.json().catch(() => null)) as {
      account_id?: unknown;
      event?: unknown;
      data?: unknown;
      count?: unknown;
      dispatch?: unknown;
    } | null;
    const accountId = Number(body?.account_id);
    const event = String(body?.event ?? '');
    const count = body?.count === undefined ? 1 : Number(body.count);
    if (!Number.isInteger(accountId) || accountId < 1) throw new ApiError(422, 'account_id must be a positive integer.');
    if (!isEventName(event)) throw new ApiError(422, 'event must be a webhook event name.');
    if (!Number.isInteger(count) || count < 1 || count > MAX_EVENTS) throw new ApiError(422, `count must be between 1 and ${MAX_EVENTS}.`);
    const data =
      body?.data && typeof body.data === 'object'
        ? (body.data as Record<string, unknown>)
        : sampleEventData(event, new Date().toISOString());
    const account = await getAccount(c.var.control, accountId);
    if (!account) throw new ApiError(422, `There is no account ${accountId}.`);
    useAccountScope(c, account);
    const rows = Array.from({ length: count }, () => ({ accountId, event, data }));
    if (body?.dispatch === 'inline') {
      // Written with their deliveries in one batch; the first attempts sent after the response (immediate.ts).
      const written = await writeEventsWithDeliveries(c.var.scope.db, accountId, rows);
      c.executionCtx.waitUntil(dispatchAfterCommit(c.var.scope, written));
    } else {
      // As the API's writers do: the outbox rows alone, and a drain request to the queue's consumer.
      const inserts = rows.map((row) => outboxInsert(c.var.scope.db, row));
      await c.var.scope.db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
      c.executionCtx.waitUntil(requestDrain(c.var.scope.queues.webhooks));
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
