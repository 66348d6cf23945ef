// The cron's retention step: past rows are pruned in bounded batches, rows still needed never are.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { handleScheduled } from '../../src/scheduled';
import { createAccount, shardOf } from '../helpers';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

let accountId: number;
let webhookId: number;
/** The account's shard: its rows are written and pruned there. */
let shard: D1Database;

beforeAll(async () => {
  ({ accountId } = await createAccount());
  shard = await shardOf(accountId);
  const hook = await shard
    .prepare(
      "INSERT INTO webhooks (account_id, url, events, secret) VALUES (?, 'https://hooks.example.com/x', '[]', 'secret-0123456789') RETURNING id",
    )
    .bind(accountId)
    .first<{ id: number }>();
  webhookId = hook!.id;
});

async function event(createdAt: string, dispatchedAt: string | null): Promise<number> {
  const row = await shard
    .prepare(
      "INSERT INTO events (account_id, event, data, created_at, dispatched_at) VALUES (?, 'template.created', '{}', ?, ?) RETURNING id",
    )
    .bind(accountId, createdAt, dispatchedAt)
    .first<{ id: number }>();
  return row!.id;
}

async function attempt(
  eventId: number | null,
  deliveryUuid: string,
  attemptNo: number,
  status: string,
  createdAt: string,
  redeliveryOf: number | null = null,
): Promise<number> {
  const row = await shard
    .prepare(
      `INSERT INTO webhook_deliveries (account_id, webhook_id, event_id, event, delivery_uuid, attempt, max_attempts, status, url, request_body, created_at, redelivery_of)
     VALUES (?, ?, ?, 'template.created', ?, ?, 6, ?, 'https://hooks.example.com/x', '{}', ?, ?) RETURNING id`,
    )
    .bind(accountId, webhookId, eventId, deliveryUuid, attemptNo, status, createdAt, redeliveryOf)
    .first<{ id: number }>();
  return row!.id;
}

async function message(status: string, createdAt: string): Promise<number> {
  const row = await shard
    .prepare(
      "INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at) VALUES (?, 'email', 'invitation', 'a@example.com', 'hi', ?, ?) RETURNING id",
    )
    .bind(accountId, status, createdAt)
    .first<{ id: number }>();
  return row!.id;
}

async function exists(table: 'events' | 'webhook_deliveries' | 'messages', id: number): Promise<boolean> {
  return (await shard.prepare(`SELECT 1 AS x FROM ${table} WHERE id = ?`).bind(id).first()) !== null;
}

async function count(table: 'events' | 'webhook_deliveries' | 'messages', where: string, ...binds: unknown[]): Promise<number> {
  return (await shard
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>())!.n;
}

describe('retention', () => {
  it('prunes dispatched events, finished webhook attempts and sent or failed messages older than 30 days', async () => {
    const oldEvent = await event(daysAgo(40), daysAgo(40));
    const uuid = crypto.randomUUID();
    const failedAttempt = await attempt(oldEvent, uuid, 1, 'failed', daysAgo(40));
    const successAttempt = await attempt(oldEvent, uuid, 2, 'success', daysAgo(40));
    const sent = await message('sent', daysAgo(31));
    const failed = await message('failed', daysAgo(31));

    await handleScheduled(env, NOW);

    expect(await exists('webhook_deliveries', failedAttempt)).toBe(false);
    expect(await exists('webhook_deliveries', successAttempt)).toBe(false);
    expect(await exists('events', oldEvent)).toBe(false);
    expect(await exists('messages', sent)).toBe(false);
    expect(await exists('messages', failed)).toBe(false);
  });

  it('keeps rows younger than the retention period', async () => {
    const pastPeriod = await message('sent', daysAgo(31));
    const recentEvent = await event(daysAgo(29), daysAgo(29));
    const recentAttempt = await attempt(recentEvent, crypto.randomUUID(), 1, 'success', daysAgo(29));
    const recentMessage = await message('sent', daysAgo(29));

    await handleScheduled(env, NOW);

    expect(await exists('events', recentEvent)).toBe(true);
    expect(await exists('webhook_deliveries', recentAttempt)).toBe(true);
    expect(await exists('messages', recentMessage)).toBe(true);
    expect(await exists('messages', pastPeriod)).toBe(false);
  });

  it('never prunes an undispatched event, a delivery still retrying or a message not yet sent, however old', async () => {
    const undispatched = await event(daysAgo(90), null);
    const retryingEvent = await event(daysAgo(90), daysAgo(90));
    const uuid = crypto.randomUUID();
    const firstFailure = await attempt(retryingEvent, uuid, 1, 'failed', daysAgo(90));
    const pendingRetry = await attempt(retryingEvent, uuid, 2, 'pending', daysAgo(90));
    const queued = await message('queued', daysAgo(90));
    const sending = await message('sending', daysAgo(90));
    const done = await message('sent', daysAgo(90));

    await handleScheduled(env, NOW);

    expect(await exists('events', undispatched)).toBe(true);
    expect(await exists('webhook_deliveries', firstFailure)).toBe(true);
    expect(await exists('webhook_deliveries', pendingRetry)).toBe(true);
    expect(await exists('events', retryingEvent)).toBe(true);
    expect(await exists('messages', queued)).toBe(true);
    expect(await exists('messages', sending)).toBe(true);
    expect(await exists('messages', done)).toBe(false);
  });

  it('keeps an old event that a recent redelivery still names', async () => {
    const oldEvent = await event(daysAgo(60), daysAgo(60));
    const original = await attempt(oldEvent, crypto.randomUUID(), 1, 'failed', daysAgo(60));
    const redelivery = await attempt(oldEvent, crypto.randomUUID(), 1, 'success', daysAgo(1), original);

    await handleScheduled(env, NOW);

    expect(await exists('webhook_deliveries', original)).toBe(false);
    expect(await exists('webhook_deliveries', redelivery)).toBe(true);
    expect(await exists('events', oldEvent)).toBe(true);
  });

  it('takes its period from RETENTION_DAYS', async () => {
    const weekOld = await message('sent', daysAgo(8));
    const dayOld = await message('sent', daysAgo(1));

    await handleScheduled({ ...env, RETENTION_DAYS: '7' }, NOW);

    expect(await exists('messages', weekOld)).toBe(false);
    expect(await exists('messages', dayOld)).toBe(true);
  });

  it('prunes at most 500 rows of a table per run, the oldest first, and the rest on the next runs', async () => {
    const recipient = `bulk-${crypto.randomUUID()}@example.com`;
    // 1,200 old sent messages in one statement; nothing here binds more than a few parameters.
    await shard
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
       INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at)
       SELECT ?, 'email', 'invitation', ?, 'hi', 'sent', strftime('%Y-%m-%dT%H:%M:%fZ', ?, '-' || i || ' seconds') FROM n`,
      )
      .bind(accountId, recipient, daysAgo(45))
      .run();

    await handleScheduled(env, NOW);
    expect(await count('messages', 'recipient = ?', recipient)).toBe(700);
    // The 500 oldest went first.
    const oldestLeft = await shard
      .prepare('SELECT min(created_at) AS at FROM messages WHERE recipient = ?')
      .bind(recipient)
      .first<{ at: string }>();
    expect(oldestLeft!.at).toBe(new Date(Date.parse(daysAgo(45)) - 700 * 1000).toISOString());

    await handleScheduled(env, NOW);
    await handleScheduled(env, NOW);
    expect(await count('messages', 'recipient = ?', recipient)).toBe(0);
  });
});
