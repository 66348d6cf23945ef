// An account being moved never stalls its shard's other accounts: the bulk background statements skip
// fenced accounts (src/db/fences.ts), whose triggers would otherwise abort them for everyone.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { archiveAuditEvents } from '../../src/scheduled/audit-archive';
import { expireDueSubmissions } from '../../src/services/submissions/expire-submissions';
import { sweepMessages } from '../../src/scheduled/messages-sweep';
import { pruneExpiredRows } from '../../src/scheduled/retention';
import { createDb } from '../../src/db/client';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { createTemplate } from '../submission-fixtures';
import { scopeOf, shardNumberOf } from '../shard-fixtures';
import { drainFor, insertEvent, receiverHook } from '../webhook-fixtures';

/** Two accounts on one shard; the first is fenced as a move fences it (account_fences row). */
async function neighbours() {
  const moving = await createAccount();
  const staying = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = ? WHERE id = ?')
    .bind(await shardNumberOf(moving.accountId), staying.accountId)
    .run();
  return { moving, staying, shard: await shardOf(moving.accountId) };
}

async function fence(shard: D1Database, accountId: number) {
  await shard.prepare("INSERT INTO account_fences (account_id, reason) VALUES (?, 'moving')").bind(accountId).run();
}

describe('bulk background work next to a fenced account', () => {
  it('drains the other accounts’ events into deliveries and leaves the fenced account’s for later', async () => {
    const { moving, staying, shard } = await neighbours();
    const hookMoving = await receiverHook(moving.token);
    const hookStaying = await receiverHook(staying.token);
    const movingEvent = await insertEvent(moving.accountId, 'submission.created');
    const stayingEvent = await insertEvent(staying.accountId, 'submission.created');
    await fence(shard, moving.accountId);

    await drainFor(staying.accountId);

    const deliveries = await shard
      .prepare('SELECT webhook_id, event_id FROM webhook_deliveries ORDER BY id')
      .all<{ webhook_id: number; event_id: number }>();
    expect(deliveries.results).toEqual([{ webhook_id: hookStaying.hook.id, event_id: stayingEvent }]);
    const moved = await shard
      .prepare('SELECT dispatched_at FROM events WHERE id = ?')
      .bind(movingEvent)
      .first<{ dispatched_at: string | null }>();
    expect(moved?.dispatched_at).toBeNull();
    expect(hookMoving.hook.id).not.toBe(hookStaying.hook.id);
  });

  it('prunes the other accounts’ old rows and keeps the fenced account’s', async () => {
    const { moving, staying, shard } = await neighbours();
    const old = new Date(Date.now() - 90 * 24 * 3600 * 1000).toISOString();
    for (const accountId of [moving.accountId, staying.accountId]) {
      await shard
        .prepare(
          "INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at) VALUES (?, 'email', 'invitation', 'x@example.com', 'hi', 'sent', ?)",
        )
        .bind(accountId, old)
        .run();
    }
    await fence(shard, moving.accountId);

    const pruned = await pruneExpiredRows(await scopeOf(staying.accountId), Date.now());

    expect(pruned.messages).toBe(1);
    const left = await shard.prepare('SELECT account_id FROM messages').all<{ account_id: number }>();
    expect(left.results).toEqual([{ account_id: moving.accountId }]);
  });
});

/** A pending submission of `account` whose expiry passed `agoMs` ago. */
async function dueSubmission(account: TestAccount, shard: D1Database, agoMs: number): Promise<number> {
  const template = await createTemplate(account.token, ['Client']);
  const res = await api('POST', '/api/submissions', {
    token: account.token,
    body: { template_id: template.id, submitters: [{ role: 'Client', email: 'due@example.com' }] },
  });
  expect(res.status).toBe(201);
  await shard
    .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
    .bind(new Date(Date.now() - agoMs).toISOString(), res.json.id)
    .run();
  return res.json.id;
}

async function statusOf(shard: D1Database, submissionId: number) {
  return (await shard.prepare('SELECT status FROM submissions WHERE id = ?').bind(submissionId).first<{ status: string }>())?.status;
}

describe('cron selections next to a moving (fenced) account', { timeout: 60_000 }, () => {
  it('expire the other accounts’ due submissions even when the fenced account’s are due first', async () => {
    const { moving, staying, shard } = await neighbours();
    const first = await dueSubmission(moving, shard, 2 * 3600_000);
    const second = await dueSubmission(staying, shard, 3600_000);
    await fence(shard, moving.accountId);

    // A batch of one: the fenced account's submission, due first, must not take the place.
    const result = await expireDueSubmissions(await scopeOf(staying.accountId), new Date(), 1);

    expect(result.expired).toBe(1);
    expect(await statusOf(shard, second)).toBe('expired');
    expect(await statusOf(shard, first)).toBe('pending');
  });

  it('re-enqueue the other accounts’ stalled messages when the fenced account has an abandoned send', async () => {
    const { moving, staying, shard } = await neighbours();
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    await shard
      .prepare(
        "INSERT INTO messages (account_id, channel, kind, recipient, text, status, claimed_at, created_at) VALUES (?, 'email', 'invitation', 'a@example.com', 'hi', 'sending', ?, ?)",
      )
      .bind(moving.accountId, hourAgo, hourAgo)
      .run();
    await shard
      .prepare(
        "INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at) VALUES (?, 'email', 'invitation', 'b@example.com', 'hi', 'queued', ?)",
      )
      .bind(staying.accountId, hourAgo)
      .run();
    await fence(shard, moving.accountId);

    const scope = await scopeOf(staying.accountId);
    const count = await sweepMessages(scope.db, scope.queues.messages);

    expect(count).toBeGreaterThanOrEqual(1);
    const moved = await shard
      .prepare('SELECT status FROM messages WHERE account_id = ?')
      .bind(moving.accountId)
      .first<{ status: string }>();
    expect(moved?.status).toBe('sending');
  });

  it('archive the other accounts’ old audit events when the fenced account’s are older', async () => {
    const { moving, staying, shard } = await neighbours();
    const old = (days: number) => new Date(Date.now() - days * 24 * 3600_000).toISOString();
    for (const [accountId, days] of [
      [moving.accountId, 200],
      [staying.accountId, 150],
    ]) {
      await shard
        .prepare(
          "INSERT INTO audit_events (account_id, action, resource_type, resource_id, method, path, status, request_id, created_at) VALUES (?, 'template.create', 'template', '1', 'POST', '/api/templates', 201, 'req-fenced', ?)",
        )
        .bind(accountId, old(days))
        .run();
    }
    await fence(shard, moving.accountId);

    const result = await archiveAuditEvents(createDb(shard), env.FILES, Date.now(), { maxParts: 1 });

    expect(result.parts).toBe(1);
    const left = await shard
      .prepare('SELECT account_id FROM audit_events WHERE created_at < ? ORDER BY account_id')
      .bind(old(100))
      .all<{ account_id: number }>();
    expect(left.results.map((row) => row.account_id)).toEqual([moving.accountId]);
  });
});
