// `POST /dev/events` (development only, like every /dev route): writes outbox rows as the other
// capabilities do, so webhooks can be exercised and benchmarked through `wrangler dev` (bench/webhooks);
// `GET /dev/events/d1-calls` tells that benchmark how many D1 calls the webhook consumer made.
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { webhookConsumerD1 } from '../../db/d1-timing';
import { getAccount } from '../../db/queries/accounts';
import { useAccountScope } from '../../middleware/databases';
import { ApiError } from '../../lib/errors';
import { isEventName } from '../../lib/events';
import { outboxInsert } from '../../services/events/outbox';
import { sampleEventData } from '../../services/webhooks/payloads';
import { requestDrain } from '../../services/webhooks/queue';

const MAX_EVENTS = 1_000;

export function mountDevEvents(app: Hono<AppEnv>) {
  app.post('/events', async (c) => {
    const body = (await c.req.json().catch(() => null)) as {
      account_id?: unknown;
      event?: unknown;
      data?: unknown;
      count?: unknown;
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
    const db = c.var.scope.db;
    const inserts = Array.from({ length: count }, () => outboxInsert(db, { accountId, event, data }));
    await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
    c.executionCtx.waitUntil(requestDrain(c.var.scope.queues.webhooks));
    return c.json({ created: count }, 201);
  });
  /** With D1_TIMING=true: the webhook consumer's D1 calls in this isolate so far (bench/webhooks). */
  app.get('/events/d1-calls', (c) => c.json({ calls: webhookConsumerD1.calls, ms: Math.round(webhookConsumerD1.ms) }));
}
