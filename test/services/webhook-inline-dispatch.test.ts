// Outbox with immediate dispatch (issue 30 › 2): the batch that writes an event also writes its
// deliveries, first attempts leased to the writer, and stores the event dispatched; after the commit the
// request sends them itself and records them (services/webhooks/immediate.ts). The lease is the claim:
// while it holds, no other party (the queue's drain, a duplicate wake-up, the cron's sweep) sends them;
// once it has run out (the request died after its commit), the sweep and the queue do, each once.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { shardBinding, shardScope, type ShardScope } from '../../src/db/shards';
import { CRON_STEPS } from '../../src/scheduled/index';
import { deliveryContext } from '../../src/services/webhooks/context';
import { LEASE_MS, SLOW_ENDPOINT_PAUSE_SECONDS } from '../../src/services/webhooks/deliver';
import { drainOutbox } from '../../src/services/webhooks/fan-out';
import { dispatchAfterCommit, INLINE_ATTEMPTS, sendWritten, writeEventsWithDeliveries } from '../../src/services/webhooks/immediate';
import type { WebhookMessage } from '../../src/env';
import { createAccount, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import {
  deliverPending,
  deliveryRows,
  drainFor,
  pendingUuids,
  receiverHook,
  recordingQueue,
  runQueue,
  shardOfWebhook,
} from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

type Deliver = Extract<WebhookMessage, { kind: 'deliver' }>;

/** Writes events n = from … from+count-1 as POST /dev/events does: with their deliveries, in one batch. */
async function writeEvents(accountId: number, from: number, count: number, now?: number) {
  const scope = shardScope(env, await shardNumberOf(accountId));
  const rows = Array.from({ length: count }, (_, i) => ({ event: 'form.completed' as const, data: { n: from + i } }));
  return { scope, w: await writeEventsWithDeliveries(scope.db, accountId, rows, now) };
}

/** Wake-ups for every pending delivery of these endpoints, run through the Worker's queue() at `now`. */
async function wakeAll(hookIds: number[], shard: number, now?: number) {
  const uuids = (await Promise.all(hookIds.map((id) => pendingUuids(id)))).flat();
  if (uuids.length)
    await runQueue(
      uuids.map((deliveryUuid) => ({ kind: 'deliver' as const, deliveryUuid, shard })),
      now,
    );
}

/** Each event's delivery ids as the receiver saw them (every id must be one the log knows). */
async function idsPerEvent(receiver: string, hookId: number): Promise<Map<number, Set<string>>> {
  const logged = new Set((await deliveryRows(hookId)).map((r) => r.delivery_uuid));
  const ids = new Map<number, Set<string>>();
  for (const d of await receivedBy(receiver)) {
    const id = d.headers['x-webhook-delivery-id'];
    expect(logged.has(id)).toBe(true);
    expect(d.signatureValid).toBe(true);
    const n = (JSON.parse(d.body) as { data: { n: number } }).data.n;
    ids.set(n, (ids.get(n) ?? new Set()).add(id));
  }
  return ids;
}

/**
 * Exactly events 0 … count-1 arrived, each under one delivery id, each logged as one successful first
 * attempt of a delivery that names its own event.
 */
async function expectEachOnce(receiver: string, hookId: number, count: number) {
  const ids = await idsPerEvent(receiver, hookId);
  expect([...ids.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: count }, (_, i) => i));
  expect([...ids.values()].map((s) => s.size)).toEqual(Array(count).fill(1));
  expect(await receivedBy(receiver)).toHaveLength(count);
  const rows = await deliveryRows(hookId);
  expect(rows.map((r) => [r.attempt, r.status])).toEqual(Array(count).fill([1, 'success']));
  const { results } = await (await shardOfWebhook(hookId))
    .prepare(
      'SELECT d.request_body AS body, e.data AS data, e.dispatched_at AS dispatched FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.webhook_id = ?',
    )
    .bind(hookId)
    .all<{ body: string; data: string; dispatched: string | null }>();
  expect(results).toHaveLength(count);
  for (const r of results) {
    expect((JSON.parse(r.body) as { data: unknown }).data).toEqual(JSON.parse(r.data));
    expect(r.dispatched).not.toBeNull();
  }
}

/** A shard database whose nth D1 batch (1-based) waits for `gates[n]` before it is sent. */
function gatedDb(shard: number, gates: Record<number, Promise<unknown>>) {
  const binding = shardBinding(env, shard);
  let n = 0;
  const gated = new Proxy(binding, {
    get(target, property) {
      if (property === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          n += 1;
          await gates[n];
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return createDb(gated);
}

describe('the request dispatches the events it wrote', () => {
  it('delivers each event once when the inline dispatch and the queue consumer race', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const one = await receiverHook(a.token);
    const two = await receiverHook(a.token, { receiver: { delayMs: 50 } });
    const hooks = [one.hook.id, two.hook.id];
    const shard = await shardNumberOf(a.accountId);
    const drain = [{ kind: 'drain' as const, shard }];

    // Side by side: the request's sends, the queue's drain and a wake-up for every delivery, each order of start.
    const first = await writeEvents(a.accountId, 0, 15);
    expect(first.w.claimed).toHaveLength(30);
    await Promise.all([dispatchAfterCommit(first.scope, first.w), runQueue(drain), wakeAll(hooks, shard)]);
    const second = await writeEvents(a.accountId, 15, 15);
    await Promise.all([wakeAll(hooks, shard), runQueue(drain), dispatchAfterCommit(second.scope, second.w)]);

    // The consumer gets there before the request sends: it takes nothing, and the drain has nothing to fan out.
    const third = await writeEvents(a.accountId, 30, 15);
    await wakeAll(hooks, shard);
    expect(await drainOutbox(third.scope.db, recordingQueue().queue, Date.now())).toMatchObject({ events: 0, deliveries: 0 });
    expect(await receivedBy(one.receiver)).toHaveLength(30);
    await dispatchAfterCommit(third.scope, third.w);

    // The consumer comes between the request's sends and its record: the lease still holds.
    const fourth = await writeEvents(a.accountId, 45, 15);
    let woken!: () => void;
    const db = gatedDb(shard, { 1: new Promise<void>((r) => (woken = r)) });
    const sending = sendWritten(deliveryContext(env, db), recordingQueue().queue, fourth.w);
    await new Promise((r) => setTimeout(r, 300)); // its sends are out; its record waits
    await wakeAll(hooks, shard);
    woken();
    await sending;

    for (const { hook, receiver } of [one, two]) await expectEachOnce(receiver, hook.id, 60);
  });

  it('recovers a request that died between its write and its sends: nothing before the lease runs out, then each once', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const { hook, receiver } = await receiverHook(a.token);
    const start = Date.now();
    // The batch commits and the request never sends (its isolate went away).
    const { w } = await writeEvents(a.accountId, 0, 6, start);
    const shard = await shardNumberOf(a.accountId);
    const claimed = await pendingUuids(hook.id);
    expect(claimed.sort()).toEqual(w.claimed.map((r) => r.deliveryUuid).sort());

    // While the lease holds: the cron's sweep finds nothing stranded, the queue's drain nothing to fan out,
    // and a wake-up for each takes nothing.
    const sweep = CRON_STEPS.find((step) => step.name === 'stranded webhook deliveries')!;
    const cron = recordingQueue();
    const cronScope: ShardScope = { ...shardScope(env, shard), queues: { ...shardScope(env, shard).queues, webhooks: cron.queue } };
    const during = start + LEASE_MS / 2;
    await sweep.run(cronScope, during);
    expect(cron.sent).toEqual([]);
    await drainFor(a.accountId, during);
    await wakeAll([hook.id], shard, during);
    expect(await receivedBy(receiver)).toEqual([]);

    // After it: the sweep wakes each attempt once and the consumer sends it, still the first attempt.
    const later = start + 2 * LEASE_MS;
    await sweep.run(cronScope, later);
    expect((cron.sent as Deliver[]).map((m) => m.deliveryUuid).sort()).toEqual([...claimed].sort());
    await runQueue(
      cron.sent.map((body) => ({ ...body, shard })),
      later,
    );
    await expectEachOnce(receiver, hook.id, 6);
    cron.sent.length = 0;
    await sweep.run(cronScope, later + 2 * LEASE_MS);
    expect(cron.sent).toEqual([]);
  });

  it('sends a fast endpoint’s deliveries while a slow one answers, and gives the slow one’s back to the queue', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const slow = await receiverHook(a.token, { receiver: { delayMs: 1_500 } });
    const fast = await receiverHook(a.token, { receiver: { delayMs: 200 } });
    const { scope, w } = await writeEvents(a.accountId, 0, 12);
    const shard = await shardNumberOf(a.accountId);
    const { sent, queue } = recordingQueue();
    const started = Date.now();
    const sending = sendWritten({ ...deliveryContext(env, scope.db), slowSendMs: 300 }, queue, w);
    // While it sends, a wake-up for each of the slow endpoint's deliveries takes none of them.
    await wakeAll([slow.hook.id], shard, started);
    const result = await sending;

    const fastGot = await receivedBy(fast.receiver);
    expect(fastGot).toHaveLength(12);
    expect(Math.max(...fastGot.map((d) => d.receivedAt)) - started).toBeLessThan(1_500);
    const slowGot = await receivedBy(slow.receiver);
    expect(slowGot.length).toBeLessThan(12);
    const slowUuids = new Set((await deliveryRows(slow.hook.id)).map((r) => r.delivery_uuid));
    const given = [...result].filter(([uuid, r]) => slowUuids.has(uuid) && r.kind === 'deferred');
    expect(given).toHaveLength(12 - slowGot.length);
    expect(given.every(([, r]) => r.kind === 'deferred' && r.delaySeconds === SLOW_ENDPOINT_PAUSE_SECONDS)).toBe(true);
    // Their wake-ups went to the queue.
    expect(new Set((sent as Deliver[]).map((m) => m.deliveryUuid))).toEqual(new Set(given.map(([uuid]) => uuid)));

    await deliverPending(slow.hook.id, started + SLOW_ENDPOINT_PAUSE_SECONDS * 1_000);
    await expectEachOnce(slow.receiver, slow.hook.id, 12);
    await expectEachOnce(fast.receiver, fast.hook.id, 12);
  }, 20_000);

  it('sends each event once under concurrent requests racing the queue’s drain and wake-ups', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const { hook, receiver } = await receiverHook(a.token);
    const shard = await shardNumberOf(a.accountId);
    // Eight requests at once, five events each, the last more than a request sends itself.
    const sizes = [5, 5, 5, 5, 5, 5, 5, INLINE_ATTEMPTS + 8];
    const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((x, y) => x + y, 0));
    const total = offsets[offsets.length - 1] + sizes[sizes.length - 1];
    const { sent, queue } = recordingQueue();
    const requests = sizes.map(async (size, i) => {
      const { scope, w } = await writeEvents(a.accountId, offsets[i], size);
      const [result] = await Promise.all([
        sendWritten(deliveryContext(env, scope.db), queue, w),
        i % 2 === 0 ? wakeAll([hook.id], shard) : runQueue([{ kind: 'drain', shard }]),
      ]);
      return result;
    });
    const results = await Promise.all(requests);
    // A request sends at most its share itself; the rest were released and enqueued.
    expect(results.map((r) => r.size)).toEqual(sizes.map((n) => Math.min(n, INLINE_ATTEMPTS)));
    expect(sent).toHaveLength(8);
    await runQueue(sent.map((body) => ({ ...body, shard })));
    await expectEachOnce(receiver, hook.id, total);
    const undispatched = await (await shardOf(a.accountId))
      .prepare('SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL')
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(undispatched!.n).toBe(0);
  }, 30_000);
});
