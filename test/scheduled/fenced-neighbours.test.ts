// An account being moved never stalls its shard's other accounts: the bulk background statements skip
// fenced accounts (src/db/fences.ts), whose triggers would otherwise abort them for everyone.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pruneExpiredRows } from '../../src/scheduled/retention';
import { createAccount, shardOf } from '../helpers';
import { scopeOf, shardNumberOf } from '../shard-fixtures';
import { drainFor, insertEvent, receiverHook } from '../webhook-fixtures';

/** Two accounts on one shard; the first is fenced as a move fences it (account_fences row). */
async function neighbours() {
  const moving = await createAccount();
  const staying = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = ? WHERE id = ?').bind(await shardNumberOf(moving.accountId), staying.accountId).run();
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

    const deliveries = await shard.prepare('SELECT webhook_id, event_id FROM webhook_deliveries ORDER BY id').all<{ webhook_id: number; event_id: number }>();
    expect(deliveries.results).toEqual([{ webhook_id: hookStaying.hook.id, event_id: stayingEvent }]);
    const moved = await shard.prepare('SELECT dispatched_at FROM events WHERE id = ?').bind(movingEvent).first<{ dispatched_at: string | null }>();
    expect(moved?.dispatched_at).toBeNull();
    expect(hookMoving.hook.id).not.toBe(hookStaying.hook.id);
  });

  it('prunes the other accounts’ old rows and keeps the fenced account’s', async () => {
    const { moving, staying, shard } = await neighbours();
    const old = new Date(Date.now() - 90 * 24 * 3600 * 1000).toISOString();
    for (const accountId of [moving.accountId, staying.accountId]) {
      await shard
        .prepare("INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at) VALUES (?, 'email', 'invitation', 'x@example.com', 'hi', 'sent', ?)")
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
