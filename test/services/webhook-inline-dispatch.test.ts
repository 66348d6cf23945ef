// Outbox with immediate dispatch (issue 30 › 2): the request that writes events fans them out and sends
// their first attempts itself after its commit (services/webhooks/immediate.ts, fan-out.ts ›
// dispatchWritten), while the queue's drain and the cron's sweep stay the at-least-once fallback. The
// claim is the batch that writes an event's deliveries (unique per event and endpoint) already leased to
// the writer and marks the event: of two parties only the one whose rows land sends them.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { shardBinding, shardScope, type ShardScope } from '../../src/db/shards';
import { CRON_STEPS } from '../../src/scheduled/index';
import { deliveryContext } from '../../src/services/webhooks/context';
import { LEASE_MS, SLOW_ENDPOINT_PAUSE_SECONDS } from '../../src/services/webhooks/deliver';
import { dispatchWritten, drainOutbox, INLINE_ATTEMPTS } from '../../src/services/webhooks/fan-out';
import { dispatchAfterCommit, writeEventsForDispatch } from '../../src/services/webhooks/immediate';
import type { WebhookMessage } from '../../src/env';
import { withFaults } from '../fault-injection';
import { createAccount, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { deliverPending, deliveryRows, drainFor, pendingUuids, receiverHook, recordingQueue, runQueue } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

/** Writes events n = from … from+count-1 as POST /dev/events does: the rows and the endpoints in one batch. */
async function writeEvents(accountId: number, from: number, count: number, scope?: ShardScope) {
  const s = scope ?? shardScope(env, await shardNumberOf(accountId));
  const rows = Array.from({ length: count }, (_, i) => ({ accountId, event: 'form.completed' as const, data: { n: from + i } }));
  return { scope: s, ...(await writeEventsForDispatch(s.db, accountId, rows)) };
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

/** Exactly events 0 … count-1 arrived, each under one delivery id, and each logged as one successful attempt. */
async function expectEachOnce(receiver: string, hookId: number, count: number) {
  const ids = await idsPerEvent(receiver, hookId);
  expect([...ids.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: count }, (_, i) => i));
  expect([...ids.values()].map((s) => s.size)).toEqual(Array(count).fill(1));
  expect(await receivedBy(receiver)).toHaveLength(count);
  const rows = await deliveryRows(hookId);
  expect(rows.map((r) => [r.attempt, r.status])).toEqual(Array(count).fill([1, 'success']));
}

/**
 * A shard database whose nth D1 batch (1-based) waits for `gates[n]` before it is sent; `landed(n)`
 * resolves once the nth batch has returned.
 */
function gatedDb(shard: number, gates: Record<number, Promise<unknown>> = {}) {
  const binding = shardBinding(env, shard);
  const landings = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  const landing = (n: number) => {
    if (!landings.has(n)) {
      let resolve!: () => void;
      landings.set(n, { promise: new Promise<void>((r) => (resolve = r)), resolve });
    }
    return landings.get(n)!;
  };
  let n = 0;
  const gated = new Proxy(binding, {
    get(target, property) {
      if (property === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const nth = (n += 1);
          await gates[nth];
          const result = await target.batch(statements);
          landing(nth).resolve();
          return result;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: createDb(gated), landed: (nth: number) => landing(nth).promise };
}

describe('the request dispatches the events it wrote', () => {
  it('delivers each event once when the inline dispatch and the queue consumer’s drain race, in either order', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const one = await receiverHook(a.token);
    const two = await receiverHook(a.token, { receiver: { delayMs: 50 } });
    const shard = await shardNumberOf(a.accountId);
    const drain = [{ kind: 'drain' as const, shard }];

    // Side by side through the Worker's queue(), each order of start.
    const first = await writeEvents(a.accountId, 0, 15);
    await Promise.all([dispatchAfterCommit(first.scope, first.written, first.endpoints), runQueue(drain)]);
    const second = await writeEvents(a.accountId, 15, 15);
    await Promise.all([runQueue(drain), dispatchAfterCommit(second.scope, second.written, second.endpoints)]);

    // The consumer read the events before the inline claim landed, and claims after it: it must send nothing.
    const third = await writeEvents(a.accountId, 30, 15);
    let inlineDone!: () => void;
    const consumer = gatedDb(shard, { 2: new Promise<void>((r) => (inlineDone = r)) });
    const lateConsumer = drainOutbox(consumer.db, recordingQueue().queue, Date.now(), { deliver: deliveryContext(env, consumer.db) });
    await consumer.landed(1); // its read is in
    await dispatchAfterCommit(third.scope, third.written, third.endpoints);
    inlineDone();
    expect(await lateConsumer).toMatchObject({ events: 15, deliveries: 0 });

    // The inline dispatch's claim comes after the consumer's: the request must send nothing.
    const fourth = await writeEvents(a.accountId, 45, 15);
    let consumerDone!: () => void;
    const inline = gatedDb(shard, { 1: new Promise<void>((r) => (consumerDone = r)) });
    const lateInline = dispatchWritten(deliveryContext(env, inline.db), recordingQueue().queue, fourth.written, fourth.endpoints);
    await drainFor(a.accountId);
    consumerDone();
    expect(await lateInline).toMatchObject({ events: 15, deliveries: 0 });

    for (const { hook, receiver } of [one, two]) await expectEachOnce(receiver, hook.id, 60);
  });

  it('recovers a request that died between its claim and its sends: nothing before the lease runs out, then each once', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const { hook, receiver } = await receiverHook(a.token);
    const shard = await shardNumberOf(a.accountId);
    const start = Date.now();
    // The claim batch commits and the request hears nothing more (its isolate went away).
    const harness = withFaults({ kind: 'd1.batch', nth: 2, mode: 'after' });
    const scope = shardScope(harness.env, shard);
    const { written, endpoints } = await writeEvents(a.accountId, 0, 6, scope);
    await expect(dispatchWritten(deliveryContext(harness.env, scope.db), scope.queues.webhooks, written, endpoints, start)).rejects.toThrow();
    expect(harness.faults.fired).not.toBeNull();
    expect(await receivedBy(receiver)).toEqual([]);
    const claimed = await pendingUuids(hook.id);
    expect(claimed).toHaveLength(6);

    // While the lease holds: the queue's drain finds the events taken, a wake-up for each takes nothing,
    // and the cron's sweep finds nothing stranded.
    const sweep = CRON_STEPS.find((step) => step.name === 'stranded webhook deliveries')!;
    const cron = recordingQueue();
    const during = start + LEASE_MS / 2;
    await sweep.run({ ...shardScope(env, shard), queues: { ...shardScope(env, shard).queues, webhooks: cron.queue } }, during);
    expect(cron.sent).toEqual([]);
    await drainFor(a.accountId, during);
    await runQueue(
      claimed.map((deliveryUuid) => ({ kind: 'deliver', deliveryUuid, shard })),
      during,
    );
    expect(await receivedBy(receiver)).toEqual([]);

    // After it: the sweep wakes each attempt once and the consumer sends it, still the first attempt.
    const later = start + 2 * LEASE_MS;
    await sweep.run({ ...shardScope(env, shard), queues: { ...shardScope(env, shard).queues, webhooks: cron.queue } }, later);
    expect((cron.sent as Extract<WebhookMessage, { kind: 'deliver' }>[]).map((m) => m.deliveryUuid).sort()).toEqual([...claimed].sort());
    await runQueue(
      cron.sent.map((body) => ({ ...body, shard })),
      later,
    );
    await expectEachOnce(receiver, hook.id, 6);
  });

  it('sends a fast endpoint’s deliveries while a slow one answers, and gives the slow one’s back to the queue', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const slow = await receiverHook(a.token, { receiver: { delayMs: 1_500 } });
    const fast = await receiverHook(a.token, { receiver: { delayMs: 200 } });
    const { written, endpoints } = await writeEvents(a.accountId, 0, 12);
    const { sent, queue } = recordingQueue();
    const shard = await shardNumberOf(a.accountId);
    const inline = gatedDb(shard);
    const started = Date.now();
    const ctx = { ...deliveryContext(env, inline.db), slowSendMs: 300 };
    const dispatch = dispatchWritten(ctx, queue, written, endpoints, started);
    // Once its claim is in, a wake-up for each of the slow endpoint's deliveries (a duplicate message,
    // a second consumer) takes none of them: they are the request's while it sends.
    await inline.landed(1);
    await runQueue(
      (await pendingUuids(slow.hook.id)).map((deliveryUuid) => ({ kind: 'deliver', deliveryUuid, shard })),
      started,
    );
    const result = await dispatch;

    const fastGot = await receivedBy(fast.receiver);
    expect(fastGot).toHaveLength(12);
    expect(Math.max(...fastGot.map((d) => d.receivedAt)) - started).toBeLessThan(1_500);
    const slowGot = await receivedBy(slow.receiver);
    expect(slowGot.length).toBeLessThan(12);
    const slowUuids = new Set((await deliveryRows(slow.hook.id)).map((r) => r.delivery_uuid));
    const given = [...result.attempts].filter(([uuid, r]) => slowUuids.has(uuid) && r.kind === 'deferred');
    expect(given).toHaveLength(12 - slowGot.length);
    // Their wake-ups went to the queue with the slow endpoint's pause.
    expect(sent).toHaveLength(given.length);
    expect(new Set((sent as Extract<WebhookMessage, { kind: 'deliver' }>[]).map((m) => m.deliveryUuid))).toEqual(
      new Set(given.map(([uuid]) => uuid)),
    );
    expect(given.every(([, r]) => r.kind === 'deferred' && r.delaySeconds === SLOW_ENDPOINT_PAUSE_SECONDS)).toBe(true);

    await deliverPending(slow.hook.id, started + SLOW_ENDPOINT_PAUSE_SECONDS * 1_000);
    await expectEachOnce(slow.receiver, slow.hook.id, 12);
    await expectEachOnce(fast.receiver, fast.hook.id, 12);
  }, 20_000);

  it('sends each event once under concurrent requests, a request’s dispatch run twice and the queue’s drain', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const { hook, receiver } = await receiverHook(a.token);
    // Eight requests at once, each writing five events (and the last one more than a request sends itself).
    const sizes = [5, 5, 5, 5, 5, 5, 5, INLINE_ATTEMPTS + 8];
    const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((x, y) => x + y, 0));
    const total = offsets[offsets.length - 1] + sizes[sizes.length - 1];
    const { sent, queue } = recordingQueue();
    const requests = sizes.map(async (size, i) => {
      const { scope, written, endpoints } = await writeEvents(a.accountId, offsets[i], size);
      const ctx = deliveryContext(env, scope.db);
      // A dispatch run twice for the same rows (a retried waitUntil, a second isolate) and a drain message.
      const [x, y] = await Promise.all([
        dispatchWritten(ctx, queue, written, endpoints),
        dispatchWritten(ctx, queue, written, endpoints),
        i % 3 === 0 ? drainFor(a.accountId) : null,
      ]);
      return [x, y];
    });
    const results = (await Promise.all(requests)).flat();
    // A request sends at most its share itself; the rest of its deliveries were enqueued for the consumer.
    expect(Math.max(...results.map((r) => r.attempts.size))).toBeLessThanOrEqual(INLINE_ATTEMPTS);
    const shard = await shardNumberOf(a.accountId);
    await runQueue(sent.map((body) => ({ ...body, shard })));
    await expectEachOnce(receiver, hook.id, total);
    const undispatched = await (await shardOf(a.accountId))
      .prepare('SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL')
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(undispatched!.n).toBe(0);
  }, 30_000);
});
