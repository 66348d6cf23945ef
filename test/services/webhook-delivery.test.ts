import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { shardScope } from '../../src/db/shards';
import worker from '../../src/index';
import { EVENT_NAMES } from '../../src/lib/events';
import { handleScheduled } from '../../src/scheduled';
import { deliveryContext } from '../../src/services/webhooks/context';
import { RETRY_DELAYS_SECONDS, sendAttempt } from '../../src/services/webhooks/deliver';
import { requeueStrandedDeliveries } from '../../src/services/webhooks/sweep';
import { createAccount, shardOf } from '../helpers';
import {
  deliverMessage,
  deliverPending,
  deliveryRows,
  drainFor,
  fanOutFor,
  insertEvent,
  pendingUuids,
  receiverHook,
  runQueue,
  SECRET,
} from '../webhook-fixtures';
import { scopeOf } from '../shard-fixtures';
import { newReceiver, receivedBy } from '../webhook-receiver';

describe('fan-out and delivery', () => {
  it('delivers every one of the 26 events to an endpoint subscribed to all, signed over the raw body', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    for (const name of EVENT_NAMES) await insertEvent(a.accountId, name, { name });
    await drainFor(a.accountId);
    await deliverPending(hook.id);

    const got = await receivedBy(receiver);
    expect(got.map((d) => JSON.parse(d.body).event).sort()).toEqual([...EVENT_NAMES].sort());
    expect(got.every((d) => d.signatureValid)).toBe(true);
    expect(new Set(got.map((d) => d.headers['x-webhook-delivery-id'])).size).toBe(26);
  });

  it('sends the spec’s body and headers, and no test markers', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    const eventId = await insertEvent(a.accountId, 'form.viewed', { submitter: { id: 7 } });
    await drainFor(a.accountId);
    await deliverPending(hook.id);

    const [delivery] = await receivedBy(receiver);
    const created = await (await shardOf(a.accountId))
      .prepare('SELECT created_at FROM events WHERE id = ?')
      .bind(eventId)
      .first<{ created_at: string }>();
    expect(JSON.parse(delivery.body)).toEqual({ event: 'form.viewed', timestamp: created!.created_at, data: { submitter: { id: 7 } } });
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toBe('SigningService-Webhook/1.0');
    expect(delivery.headers['x-webhook-secret']).toBe(SECRET);
    expect(delivery.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(delivery.headers['x-webhook-test']).toBeUndefined();
    const [row] = await deliveryRows(hook.id);
    expect(delivery.headers['x-webhook-delivery-id']).toBe(row.delivery_uuid);
    expect(row.request_body).toBe(delivery.body);
  });

  it('signs the UTF-8 bytes it sends, so non-ASCII payloads verify', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed', { submitter: { name: 'Zoë Łukasiewicz 🖋', note: 'line\u2028break' } });
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const [delivery] = await receivedBy(receiver);
    expect(delivery.signatureValid).toBe(true);
    expect(JSON.parse(delivery.body).data.submitter.name).toBe('Zoë Łukasiewicz 🖋');
  });

  it('delivers only the subscribed events to an endpoint with a list', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { events: ['form.completed', 'template.created'] });
    for (const name of ['form.viewed', 'form.completed', 'submission.created', 'template.created']) await insertEvent(a.accountId, name);
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    expect((await receivedBy(receiver)).map((d) => JSON.parse(d.body).event)).toEqual(['form.completed', 'template.created']);
  });

  it('never delivers one account’s events to another account’s endpoint', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const { hook, receiver } = await receiverHook(b.token);
    await insertEvent(a.accountId, 'form.completed');
    await drainFor([a.accountId, b.accountId]);
    expect(await pendingUuids(hook.id)).toEqual([]);
    expect(await receivedBy(receiver)).toEqual([]);
  });

  it('skips disabled endpoints', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await (await shardOf(a.accountId)).prepare('UPDATE webhooks SET enabled = 0 WHERE id = ?').bind(hook.id).run();
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    expect(await deliveryRows(hook.id)).toEqual([]);
  });

  it('does not send an endpoint the events from before it was created', async () => {
    const a = await createAccount();
    const eventId = await insertEvent(a.accountId, 'form.completed');
    await (await shardOf(a.accountId))
      .prepare(`UPDATE events SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?`)
      .bind(eventId)
      .run();
    const { hook } = await receiverHook(a.token);
    await drainFor(a.accountId);
    expect(await deliveryRows(hook.id)).toEqual([]);
  });

  it('creates no second delivery when the outbox is drained twice, by queue and cron', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await (await shardOf(a.accountId)).prepare('UPDATE events SET dispatched_at = NULL').run(); // as if the mark was lost
    await drainFor(a.accountId);
    await handleScheduled(env);
    await deliverPending(hook.id);
    await deliverPending(hook.id);
    expect(await deliveryRows(hook.id)).toHaveLength(1);
    expect(await receivedBy(receiver)).toHaveLength(1);
  });

  it('sends once when the same delivery is woken twice in one batch and again later', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    await fanOutFor(a.accountId);
    const [uuid] = await pendingUuids(hook.id);
    const message = await deliverMessage(uuid);
    const result = await runQueue([message, message]);
    await runQueue([message]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(await receivedBy(receiver)).toHaveLength(1);
  });

  it('sends once when two consumers race for the same delivery', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { delayMs: 200 } });
    await insertEvent(a.accountId, 'form.completed');
    await fanOutFor(a.accountId);
    const [uuid] = await pendingUuids(hook.id);
    const message = await deliverMessage(uuid);
    await Promise.all([runQueue([message]), runQueue([message])]);
    expect(await receivedBy(receiver)).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a failing endpoint after 1 m, 5 m, 30 m, 2 h and 8 h, then marks the delivery failed', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { failFirst: 100 } });
    await insertEvent(a.accountId, 'submission.completed');
    const start = Date.now();
    await drainFor(a.accountId, start);
    await deliverPending(hook.id, start);
    let now = start;
    for (const delay of RETRY_DELAYS_SECONDS) {
      const rows = await deliveryRows(hook.id);
      const failed = rows[rows.length - 2];
      const pending = rows[rows.length - 1];
      expect(pending.status).toBe('pending');
      const gap = Date.parse(pending.next_attempt_at!) - Date.parse(failed.attempted_at!);
      expect(gap).toBeGreaterThanOrEqual(delay * 1000);
      expect(gap).toBeLessThan(delay * 1000 + 5_000);
      now = Date.parse(pending.next_attempt_at!);
      await deliverPending(hook.id, now);
    }
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'failed']));
    expect(await pendingUuids(hook.id)).toEqual([]);
    const got = await receivedBy(receiver);
    expect(got).toHaveLength(6);
    expect(new Set(got.map((d) => d.headers['x-webhook-delivery-id'])).size).toBe(1);
    expect(new Set(got.map((d) => d.body)).size).toBe(1);
    expect(got.every((d) => d.signatureValid)).toBe(true);
  });

  it('does not attempt a retry before it is due', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { failFirst: 1 } });
    await insertEvent(a.accountId, 'form.completed');
    const start = Date.now();
    await drainFor(a.accountId, start);
    await deliverPending(hook.id, start);
    const due = Date.parse((await deliveryRows(hook.id))[1].next_attempt_at!);
    await deliverPending(hook.id, due - 1_000);
    expect(await receivedBy(receiver)).toHaveLength(1);
  });

  it('logs a delivery that fails twice then succeeds as three attempts of one delivery id', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { failFirst: 2, failStatus: 503 } });
    await insertEvent(a.accountId, 'form.completed');
    let now = Date.now();
    await drainFor(a.accountId, now);
    for (let i = 0; i < 3; i += 1) {
      await deliverPending(hook.id, now);
      now += 10 * 60 * 60 * 1000;
    }
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.status, r.http_status])).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'success', 200],
    ]);
    expect(rows[0].error_message).toBe('The endpoint answered 503; only 2xx counts as delivered.');
    expect(new Set(rows.map((r) => r.delivery_uuid)).size).toBe(1);
    expect(await receivedBy(receiver)).toHaveLength(3);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const a = await createAccount();
    const target = await newReceiver();
    const { hook } = await receiverHook(a.token, { receiver: { redirectTo: target.url } });
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const [row] = await deliveryRows(hook.id);
    expect(row.status).toBe('failed');
    expect(row.http_status).toBe(302);
    expect(row.error_message).toContain('redirects are not followed');
    expect(await receivedBy(target.name)).toEqual([]);
  });

  it('counts no complete response within the timeout as a failure', async () => {
    const receiver = await newReceiver({ delayMs: 1_500 });
    const ctx = { ...deliveryContext(env, shardScope(env, 0).db), timeoutMs: 200 };
    const { outcome } = await sendAttempt(
      ctx,
      { deliveryUuid: crypto.randomUUID(), requestBody: '{}' },
      { url: receiver.url, secret: SECRET },
      new Date().toISOString(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.errorMessage).toBe('No complete response within 0.2 seconds.');
  });

  it('counts a 200 whose body does not finish within the timeout as a failure', async () => {
    const receiver = await newReceiver({ stallBodyMs: 1_500 });
    const ctx = { ...deliveryContext(env, shardScope(env, 0).db), timeoutMs: 300 };
    const { outcome } = await sendAttempt(
      ctx,
      { deliveryUuid: crypto.randomUUID(), requestBody: '{}' },
      { url: receiver.url, secret: SECRET },
      new Date().toISOString(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.errorMessage).toBe('No complete response within 0.3 seconds.');
  });

  it('truncates a long response body in the log', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token, { receiver: { responseBody: 'x'.repeat(10_000) } });
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const [row] = await deliveryRows(hook.id);
    expect(row.response_body).toBe(`${'x'.repeat(4096)}…`);
  });
});

describe('safety at delivery time', () => {
  it('re-checks the URL before each attempt and does not retry a refused destination', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    await fanOutFor(a.accountId);
    await (await shardOf(a.accountId)).prepare(`UPDATE webhooks SET url = 'http://127.0.0.1:1/hook' WHERE id = ?`).bind(hook.id).run();
    await deliverPending(hook.id);
    const rows = await deliveryRows(hook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error_message).toBe('Not sent: url points to 127.0.0.1, loopback (127.0.0.0/8), which webhooks may not call.');
  });

  it('closes off the pending delivery of a deleted endpoint without sending it', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    await fanOutFor(a.accountId);
    await (await shardOf(a.accountId))
      .prepare(`UPDATE webhooks SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?`)
      .bind(hook.id)
      .run();
    await deliverPending(hook.id);
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.status, r.error_message])).toEqual([['failed', 'Not sent: the endpoint was deleted.']]);
    expect(await receivedBy(receiver)).toEqual([]);
  });
});

describe('crash recovery', () => {
  it('fans out the outbox from the cron trigger when no drain message arrived', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'template.created');
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    await deliverPending(hook.id);
    expect((await receivedBy(receiver)).map((d) => JSON.parse(d.body).event)).toEqual(['template.created']);
  });

  it('sends a delivery whose consumer died mid-attempt once its lease runs out', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    const start = Date.now();
    await fanOutFor(a.accountId, start);
    // A consumer took the attempt and crashed: the lease is held, nothing recorded.
    await (await shardOf(a.accountId))
      .prepare('UPDATE webhook_deliveries SET lease_until = ? WHERE webhook_id = ?')
      .bind(new Date(start + 60_000).toISOString(), hook.id)
      .run();
    const [uuid] = await pendingUuids(hook.id);
    await deliverPending(hook.id, start + 1_000);
    expect(await receivedBy(receiver)).toEqual([]);
    const later = start + 2 * 60_000;
    const { db, queues } = await scopeOf(a.accountId);
    expect(await requeueStrandedDeliveries(db, queues.webhooks, later)).toContain(uuid);
    await deliverPending(hook.id, later);
    expect((await receivedBy(receiver)).length).toBe(1);
    expect((await deliveryRows(hook.id)).map((r) => r.status)).toEqual(['success']);
  });

  it('finds a delivery whose wake-up message was lost, and not one still on time', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    const start = Date.now();
    await fanOutFor(a.accountId, start);
    const { db, queues } = await scopeOf(a.accountId);
    const [uuid] = await pendingUuids(hook.id);
    expect(await requeueStrandedDeliveries(db, queues.webhooks, start + 10_000)).not.toContain(uuid);
    expect(await requeueStrandedDeliveries(db, queues.webhooks, start + 61_000)).toContain(uuid);
  });

  it('acks every message it handled', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await insertEvent(a.accountId, 'form.completed');
    await fanOutFor(a.accountId); // one delivery waiting for its wake-up
    await insertEvent(a.accountId, 'form.viewed');
    const drained = await drainFor(a.accountId);
    const delivered = await deliverPending(hook.id);
    expect(drained.explicitAcks).toHaveLength(1);
    expect(delivered!.explicitAcks).toHaveLength(1);
    expect(delivered!.retryMessages).toEqual([]);
  });
});
