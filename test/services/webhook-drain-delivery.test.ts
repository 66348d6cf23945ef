// The consumer's drain sends first attempts itself (issue 30 › 2): the deliveries it writes are leased to
// it in the same D1 batch that marks their events, it sends them side by side and records them in one
// more batch, so an event reaches its endpoints without a wake-up message in between. A slow endpoint's
// not-started attempts are given back to the queue, a redelivered drain sends nothing twice, and a
// failure anywhere in the run leaves every event marked with its deliveries and delivered in the end.
import { createMessageBatch, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { withD1Time, type D1Time } from '../../src/db/d1-timing';
import { shardBinding, shardScope } from '../../src/db/shards';
import { consumeByShard } from '../../src/queues/shard-batches';
import { handleWebhookBatch } from '../../src/queues/webhooks';
import { deliveryContext } from '../../src/services/webhooks/context';
import { LEASE_MS, SLOW_ENDPOINT_PAUSE_SECONDS } from '../../src/services/webhooks/deliver';
import { drainOutbox } from '../../src/services/webhooks/fan-out';
import { requeueStrandedDeliveries } from '../../src/services/webhooks/sweep';
import type { WebhookMessage } from '../../src/env';
import { withFaults, type FaultKind, type FaultMode } from '../fault-injection';
import { createAccount, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { deliverPending, deliveryRows, drainFor, pendingUuids, receiverHook, recordingQueue, runQueue } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

async function insertEvents(accountId: number, n: number): Promise<number[]> {
  const shard = await shardOf(accountId);
  const insert = shard.prepare('INSERT INTO events (account_id, event, data) VALUES (?, ?, ?) RETURNING id');
  const results = await shard.batch<{ id: number }>(
    Array.from({ length: n }, (_, i) => insert.bind(accountId, 'form.completed', JSON.stringify({ n: i }))),
  );
  return results.map((r) => r.results[0].id);
}

/** The event ids the receiver got, one per delivery id, and how many delivery ids each event arrived under. */
async function arrivalsByEvent(receiver: string, hookId: number) {
  const got = await receivedBy(receiver);
  const eventOf = new Map((await deliveryRows(hookId)).map((r) => [r.delivery_uuid, r]));
  const idsPerEvent = new Map<string, Set<string>>();
  for (const d of got) {
    const id = d.headers['x-webhook-delivery-id'];
    const body = JSON.parse(d.body) as { data: { n: number } };
    const key = String(body.data.n);
    idsPerEvent.set(key, (idsPerEvent.get(key) ?? new Set()).add(id));
    expect(eventOf.has(id)).toBe(true);
  }
  return { got, idsPerEvent };
}

async function undispatched(accountId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare('SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL')
    .bind(accountId)
    .first<{ n: number }>();
  return row!.n;
}

describe('the consumer’s drain sends first attempts', () => {
  it('delivers 150 events from one drain, each once, in three D1 calls a round and without wake-up messages', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await drainFor(a.accountId); // the shard's outbox empty before counting
    await insertEvents(a.accountId, 150);
    const { sent, queue } = recordingQueue();
    const time: D1Time = { ms: 0, calls: 0 };
    const db = createDb(shardBinding(env, await shardNumberOf(a.accountId)));
    const ctx = deliveryContext(env, db);
    const result = await withD1Time(time, () => drainOutbox(db, queue, Date.now(), { deliver: ctx }));

    expect(result).toMatchObject({ events: 150, deliveries: 150, more: false });
    expect([...result.attempts.values()].every((r) => r.kind === 'attempted' && r.status === 'success')).toBe(true);
    expect(time.calls).toBe(6); // two rounds (100 + 50): read, write and mark, record
    expect(sent).toEqual([]);
    const { got, idsPerEvent } = await arrivalsByEvent(receiver, hook.id);
    expect(got).toHaveLength(150);
    expect(idsPerEvent.size).toBe(150);
    expect([...idsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    expect((await deliveryRows(hook.id)).map((r) => r.status)).toEqual(Array(150).fill('success'));
    expect(await pendingUuids(hook.id)).toEqual([]);
  });

  it('delivers through the queue consumer: one drain message, every endpoint’s deliveries sent and recorded', async () => {
    const a = await createAccount();
    const one = await receiverHook(a.token);
    const two = await receiverHook(a.token);
    await insertEvents(a.accountId, 40);
    const result = await drainFor(a.accountId);
    expect(result.explicitAcks).toHaveLength(1);
    for (const { hook, receiver } of [one, two]) {
      expect(await receivedBy(receiver)).toHaveLength(40);
      expect((await deliveryRows(hook.id)).map((r) => r.status)).toEqual(Array(40).fill('success'));
    }
  });

  it('sends a fast endpoint’s deliveries while a slow one answers, and gives the slow one’s not started back to the queue', async () => {
    const a = await createAccount();
    await drainFor(a.accountId);
    const slow = await receiverHook(a.token, { receiver: { delayMs: 1_500 } });
    // Fast, but with sends still waiting once the slow endpoint's first ones are overdue.
    const fast = await receiverHook(a.token, { receiver: { delayMs: 200 } });
    await insertEvents(a.accountId, 12);
    const { queue } = recordingQueue();
    const db = createDb(shardBinding(env, await shardNumberOf(a.accountId)));
    const ctx = { ...deliveryContext(env, db), slowSendMs: 300 };
    const started = Date.now();
    const result = await drainOutbox(db, queue, started, { deliver: ctx });

    const fastGot = await receivedBy(fast.receiver);
    expect(fastGot).toHaveLength(12);
    // Every fast delivery arrived before the slow endpoint's first answer came back.
    expect(Math.max(...fastGot.map((d) => d.receivedAt)) - started).toBeLessThan(1_500);
    // The slow endpoint kept only the sends it had open; its other attempts were given back, not waited for.
    const slowGot = await receivedBy(slow.receiver);
    expect(slowGot.length).toBeLessThanOrEqual(6);
    expect(slowGot.length).toBeLessThan(12);
    const slowUuids = new Set((await deliveryRows(slow.hook.id)).map((r) => r.delivery_uuid));
    const given = [...result.attempts].filter(([uuid]) => slowUuids.has(uuid) && result.attempts.get(uuid)!.kind === 'deferred');
    expect(given).toHaveLength(12 - slowGot.length);
    expect(given.every(([, r]) => r.kind === 'deferred' && r.delaySeconds === SLOW_ENDPOINT_PAUSE_SECONDS)).toBe(true);
    const leases = await (await shardOf(a.accountId))
      .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' AND lease_until IS NULL`)
      .bind(slow.hook.id)
      .first<{ n: number }>();
    expect(leases!.n).toBe(given.length);

    // Their wake-ups deliver them, each once, still as first attempts.
    await deliverPending(slow.hook.id, started + SLOW_ENDPOINT_PAUSE_SECONDS * 1_000);
    const rows = await deliveryRows(slow.hook.id);
    expect(rows.map((r) => [r.attempt, r.status])).toEqual(Array(12).fill([1, 'success']));
    expect(await receivedBy(slow.receiver)).toHaveLength(12);
  }, 20_000);

  it('sends each event once when the same drain batch is delivered twice at once and again later', async () => {
    const a = await createAccount();
    const one = await receiverHook(a.token);
    const two = await receiverHook(a.token, { receiver: { delayMs: 50 } });
    await insertEvents(a.accountId, 30);
    const shard = await shardNumberOf(a.accountId);
    const batch = [{ kind: 'drain' as const, shard }];
    await Promise.all([runQueue(batch), runQueue(batch)]);
    await runQueue(batch);
    for (const { hook, receiver } of [one, two]) {
      const { got, idsPerEvent } = await arrivalsByEvent(receiver, hook.id);
      expect(got).toHaveLength(30);
      expect(idsPerEvent.size).toBe(30);
      expect((await deliveryRows(hook.id)).map((r) => r.status)).toEqual(Array(30).fill('success'));
    }
  });
});

describe('a failure in the middle of a drain', () => {
  const faults: { kind: FaultKind; nth: number; what: string }[] = [
    { kind: 'd1.batch', nth: 1, what: 'reading the events' },
    { kind: 'd1.batch', nth: 2, what: 'writing the deliveries and marks' },
    { kind: 'd1.batch', nth: 3, what: 'recording the attempts' },
    { kind: 'fetch.webhook', nth: 2, what: 'a send' },
  ];
  const modes: FaultMode[] = ['before', 'after'];

  for (const { kind, nth, what } of faults) {
    for (const mode of modes) {
      it(`leaves no event unsent or half-marked with a fault ${mode} ${what}`, async () => {
        const a = await createAccount();
        await drainFor(a.accountId);
        const { hook, receiver } = await receiverHook(a.token);
        await insertEvents(a.accountId, 8);
        const shard = await shardNumberOf(a.accountId);
        const start = Date.now();
        const harness = withFaults({ kind, nth, mode });
        harness.faults.interceptFetch();
        const batch = createMessageBatch<WebhookMessage>('signing-service-webhooks', [
          { id: `drain-${kind}-${nth}-${mode}`, timestamp: new Date(), attempts: 1, body: { kind: 'drain', shard } as WebhookMessage },
        ]);
        try {
          await consumeByShard(batch, harness.env, (part, scope) => handleWebhookBatch(part, scope, { now: start }));
        } finally {
          harness.faults.restore();
        }
        expect(harness.faults.fired).not.toBeNull();

        // Whatever was written: an event is marked exactly when its deliveries exist.
        const rows = await deliveryRows(hook.id);
        expect(await undispatched(a.accountId)).toBe(rows.length === 0 ? 8 : 0);

        // What the queue and the cron do next: the drain retried, then the sweep after a lease, then the wake-ups.
        await drainFor(a.accountId, start + 1_000);
        const later = start + 2 * LEASE_MS;
        const { db, queues } = shardScope(env, shard);
        await requeueStrandedDeliveries(db, queues.webhooks, later);
        await deliverPending(hook.id, later);
        await deliverPending(hook.id, later + 60_000); // a send that failed is retried a minute later

        expect(await undispatched(a.accountId)).toBe(0);
        const final = await deliveryRows(hook.id);
        expect(final.filter((r) => r.status === 'pending')).toEqual([]);
        expect(new Set(final.filter((r) => r.status === 'success').map((r) => r.delivery_uuid)).size).toBe(8);
        expect(new Set(final.map((r) => r.delivery_uuid)).size).toBe(8);
        // At least once, and a repeat only ever under the same delivery id.
        const { idsPerEvent } = await arrivalsByEvent(receiver, hook.id);
        expect(idsPerEvent.size).toBe(8);
        expect([...idsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
      });
    }
  }
});
