// The cron covers every shard in one run, and a shard whose step fails holds up only its own accounts
// (issue 14 › 3: background work per shard).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleScheduled } from '../../src/scheduled';
import { allShards, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { createTemplate } from '../submission-fixtures';

/** Two accounts, one on each of the first two shards (the helpers alternate them). */
async function accountsOnBothShards(): Promise<[TestAccount, TestAccount]> {
  const first = await createAccount();
  const second = await createAccount();
  const byShard = new Map([
    [await shardNumberOf(first.accountId), first],
    [await shardNumberOf(second.accountId), second],
  ]);
  expect([...byShard.keys()].sort()).toEqual([0, 1]);
  return [byShard.get(0)!, byShard.get(1)!];
}

/** A sent submission of the owner whose expiry has just passed. */
async function dueSubmission(owner: TestAccount): Promise<number> {
  const template = await createTemplate(owner.token, ['Buyer']);
  const created = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      send_email: false,
      submitters: [{ role: 'Buyer', email: 'buyer@example.com' }],
      expire_at: new Date(Date.now() + 60_000).toISOString(),
    },
  });
  expect(created.status).toBe(201);
  await (await shardOf(owner.accountId))
    .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
    .bind(new Date(Date.now() - 1000).toISOString(), created.json.id)
    .run();
  return created.json.id;
}

async function statusOf(owner: TestAccount, id: number): Promise<string> {
  return (await api('GET', `/api/submissions/${id}`, { token: owner.token })).json.status;
}

describe('the cron across shards', () => {
  it('binds at least two shards in tests, so every run crosses shards', () => {
    expect(allShards().length).toBeGreaterThanOrEqual(2);
  });

  it('expires due submissions on every shard in one run', async () => {
    const [onZero, onOne] = await accountsOnBothShards();
    const zero = await dueSubmission(onZero);
    const one = await dueSubmission(onOne);

    await handleScheduled(env, Date.now());

    expect(await statusOf(onZero, zero)).toBe('expired');
    expect(await statusOf(onOne, one)).toBe('expired');
  });

  it('runs a step on the other shards when it fails on one, and the run rejects naming that shard', async () => {
    const [onZero, onOne] = await accountsOnBothShards();
    const zero = await dueSubmission(onZero);
    const one = await dueSubmission(onOne);
    // Shard 0's submissions table is unusable for the run: every step reading it fails there.
    const broken = env.SHARD_0!;
    await broken.exec('ALTER TABLE submissions RENAME TO submissions_unusable;');
    let failure: unknown;
    try {
      await handleScheduled(env, Date.now()).catch((error) => (failure = error));
    } finally {
      await broken.exec('ALTER TABLE submissions_unusable RENAME TO submissions;');
    }

    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain('submission expiry (shard 0)');
    expect(message).not.toContain('(shard 1)');
    expect(await statusOf(onOne, one)).toBe('expired');
    expect(await statusOf(onZero, zero)).not.toBe('expired');
    // Once the shard is healthy again, the next run catches up.
    await handleScheduled(env, Date.now());
    expect(await statusOf(onZero, zero)).toBe('expired');
  });
});
