// Webhook fan-out at volume (issue 30 › 2): the outbox drains in rounds of a fixed number of D1 calls
// whatever their size, claims and records go to D1 once per consumer run, and the sends run side by side
// within a connection budget, so a slow endpoint holds neither the others nor the run.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { withD1Time, type D1Time } from '../../src/db/d1-timing';
import { shardBinding } from '../../src/db/shards';
import { deliveryContext } from '../../src/services/webhooks/context';
import { deliverDue, SEND_CONNECTIONS, SENDS_PER_ENDPOINT } from '../../src/services/webhooks/deliver';
import { drainOutbox } from '../../src/services/webhooks/fan-out';
import { createAccount, shardOf } from '../helpers';
import { deliveryRows, drainFor, fanOutFor, pendingUuids, receiverHook, recordingQueue, runQueue } from '../webhook-fixtures';
import { receivedBy, type ReceivedDelivery } from '../webhook-receiver';
import { shardNumberOf } from '../shard-fixtures';

/** The account's shard through a view that counts its D1 calls into `time`. */
async function countedDb(accountId: number) {
  return createDb(shardBinding(env, await shardNumberOf(accountId)));
}

async function insertEvents(accountId: number, n: number): Promise<void> {
  const shard = await shardOf(accountId);
  const insert = shard.prepare('INSERT INTO events (account_id, event, data) VALUES (?, ?, ?)');
  await shard.batch(Array.from({ length: n }, (_, i) => insert.bind(accountId, 'form.completed', JSON.stringify({ n: i }))));
}

/** How many of these deliveries were being answered at once, at most (the receiver logs arrival; answers after delayMs). */
function mostAtOnce(got: ReceivedDelivery[], delayMs: number): number {
  return Math.max(...got.map((d) => got.filter((o) => o.receivedAt <= d.receivedAt && d.receivedAt < o.receivedAt + delayMs).length));
}

describe('draining the outbox in batches', () => {
  it('fans out 150 events in two rounds of two D1 calls each, one delivery and one wake-up per event', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await drainFor(a.accountId); // the shard's outbox empty before counting
    await insertEvents(a.accountId, 150);
    const { sent, queue } = recordingQueue();
    const time: D1Time = { ms: 0, calls: 0 };
    const db = await countedDb(a.accountId);
    const result = await withD1Time(time, () => drainOutbox(db, queue, Date.now()));
    expect(result).toMatchObject({ events: 150, deliveries: 150, more: false });
    expect(time.calls).toBe(4);
    const rows = await deliveryRows(hook.id);
    expect(rows).toHaveLength(150);
    expect(new Set(rows.map((r) => r.delivery_uuid)).size).toBe(150);
    expect(sent.map((m) => (m.kind === 'deliver' ? m.deliveryUuid : null)).sort()).toEqual(rows.map((r) => r.delivery_uuid).sort());
  });

  it('creates one delivery per event and endpoint when the same drain batch is delivered twice at once', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    const other = await receiverHook(a.token);
    await insertEvents(a.accountId, 30);
    const shard = await shardNumberOf(a.accountId);
    await Promise.all([runQueue([{ kind: 'drain', shard }]), runQueue([{ kind: 'drain', shard }])]);
    for (const id of [hook.id, other.hook.id]) {
      const rows = await deliveryRows(id);
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.delivery_uuid)).size).toBe(30);
    }
  });
});

describe('delivering a consumer batch', () => {
  it('claims and records 40 deliveries in two D1 calls, all sent', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvents(a.accountId, 40);
    await fanOutFor(a.accountId);
    const uuids = await pendingUuids(hook.id);
    expect(uuids).toHaveLength(40);
    const time: D1Time = { ms: 0, calls: 0 };
    const ctx = deliveryContext(env, await countedDb(a.accountId));
    const results = await withD1Time(time, () => deliverDue(ctx, uuids, Date.now()));
    expect(time.calls).toBe(2);
    expect([...results.values()].every((r) => r.kind === 'attempted' && r.status === 'success')).toBe(true);
    expect(await receivedBy(receiver)).toHaveLength(40);
  });

  it(`sends at most ${SENDS_PER_ENDPOINT} at once to one endpoint while another endpoint’s sends wait, and up to ${SEND_CONNECTIONS} alone`, async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { delayMs: 300 } });
    const other = await receiverHook(a.token, { receiver: { delayMs: 300 } });
    await insertEvents(a.accountId, 8);
    await fanOutFor(a.accountId);
    const ctx = deliveryContext(env, await countedDb(a.accountId));
    await deliverDue(ctx, [...(await pendingUuids(hook.id)), ...(await pendingUuids(other.hook.id))], Date.now());
    const got = await receivedBy(receiver);
    expect(got).toHaveLength(8);
    // While the other endpoint's sends waited, this one held at most its share: the first answers came
    // back before the fourth send to it started.
    const arrivals = got.map((d) => d.receivedAt).sort((x, y) => x - y);
    expect(arrivals[SENDS_PER_ENDPOINT] - arrivals[0]).toBeGreaterThanOrEqual(250);
    expect(mostAtOnce([...got, ...(await receivedBy(other.receiver))], 300)).toBeLessThanOrEqual(SEND_CONNECTIONS);
  });

  it('sends a fast endpoint’s deliveries while a slow endpoint’s are still waiting for answers', async () => {
    const a = await createAccount();
    const slow = await receiverHook(a.token, { receiver: { delayMs: 2_000 } });
    const fast = await receiverHook(a.token);
    await insertEvents(a.accountId, 6);
    await fanOutFor(a.accountId);
    // The slow endpoint's deliveries first in the batch, as a backlog would put them.
    const uuids = [...(await pendingUuids(slow.hook.id)), ...(await pendingUuids(fast.hook.id))];
    const ctx = deliveryContext(env, await countedDb(a.accountId));
    const started = Date.now();
    await deliverDue(ctx, uuids, started);
    const fastGot = await receivedBy(fast.receiver);
    expect(fastGot).toHaveLength(6);
    expect(Math.max(...fastGot.map((d) => d.receivedAt)) - started).toBeLessThan(2_000);
  }, 15_000);

  it('gives back the attempts it could not start within its send window, pending and unleased, to be woken again', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { delayMs: 600 } });
    await insertEvents(a.accountId, 8);
    await fanOutFor(a.accountId);
    const uuids = await pendingUuids(hook.id);
    const ctx = { ...deliveryContext(env, await countedDb(a.accountId)), sendWindowMs: 100 };
    const results = await deliverDue(ctx, uuids, Date.now());
    const kinds = [...results.values()].map((r) => r.kind).sort();
    expect(kinds).toEqual([...Array(SEND_CONNECTIONS).fill('attempted'), ...Array(8 - SEND_CONNECTIONS).fill('deferred')].sort());
    expect(await receivedBy(receiver)).toHaveLength(SEND_CONNECTIONS);
    const deferred = [...results].filter(([, r]) => r.kind === 'deferred').map(([uuid]) => uuid);
    const rows = (await deliveryRows(hook.id)).filter((r) => deferred.includes(r.delivery_uuid));
    expect(rows.map((r) => r.status)).toEqual(deferred.map(() => 'pending'));
    const leases = await (await shardOf(a.accountId))
      .prepare(`SELECT lease_until FROM webhook_deliveries WHERE delivery_uuid IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify(deferred))
      .all<{ lease_until: string | null }>();
    expect(leases.results.map((r) => r.lease_until)).toEqual(deferred.map(() => null));
  });
});
