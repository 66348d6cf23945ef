// The partner control plane and the shards (issue 14 › 1–2): a new account goes to the least loaded
// shard, and a partner action on an account is recorded in the audit trail on that account's shard.
import { describe, expect, it } from 'vitest';
import { allShards, createAccount, partnerApi } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';

/** Audit rows of an account with this action, per shard (SHARD_0 first). */
async function auditRowsPerShard(accountId: number, action: string): Promise<number[]> {
  return Promise.all(
    allShards().map(
      async (shard) =>
        (await shard
          .prepare('SELECT count(*) AS n FROM audit_events WHERE account_id = ? AND action = ?')
          .bind(accountId, action)
          .first<{ n: number }>())!.n,
    ),
  );
}

/** About `megabytes` MB of rows on one shard (events of an account that does not exist, never read). */
async function fill(shard: D1Database, megabytes: number): Promise<void> {
  for (let i = 0; i < megabytes; i += 1) {
    await shard
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 16)
         INSERT INTO events (account_id, event, data) SELECT 999999, 'form.viewed', json_object('pad', hex(randomblob(32768))) FROM n`,
      )
      .run();
  }
}

async function sizeOf(shard: D1Database): Promise<number> {
  return (await shard.prepare('SELECT 1').run()).meta.size_after ?? 0;
}

async function newAccountShard(): Promise<number> {
  const res = await partnerApi('POST', '/accounts', { body: { name: 'Placed Co' } });
  expect(res.status).toBe(201);
  return shardNumberOf(res.json.id);
}

describe('partner actions on sharded accounts', () => {
  it('records a partner update of each account in the audit trail on that account’s shard only', async () => {
    const first = await createAccount();
    const second = await createAccount();
    const accounts = [first, second];
    expect(new Set(await Promise.all(accounts.map((a) => shardNumberOf(a.accountId)))).size).toBe(2);
    for (const a of accounts) {
      expect((await partnerApi('PATCH', `/accounts/${a.accountId}`, { body: { name: 'Renamed Co' } })).status).toBe(200);
      const expected = allShards().map(() => 0);
      expected[await shardNumberOf(a.accountId)] = 1;
      expect(await auditRowsPerShard(a.accountId, 'partner.account.update')).toEqual(expected);
    }
  });

  it('records creating an account on the shard it was placed on', async () => {
    const res = await partnerApi('POST', '/accounts', { body: { name: 'Audited Co' } });
    expect(res.status).toBe(201);
    const expected = allShards().map(() => 0);
    expected[await shardNumberOf(res.json.id)] = 1;
    expect(await auditRowsPerShard(res.json.id, 'partner.account.create')).toEqual(expected);
  });
});

describe('placing a new account', () => {
  it('puts a new account on the least loaded shard, by database size', async () => {
    const [zero, one] = allShards();
    await fill(zero, Math.ceil((await sizeOf(one)) / 2 ** 20) + 2);
    expect(await sizeOf(zero)).toBeGreaterThan(await sizeOf(one));
    expect(await newAccountShard()).toBe(1);

    await fill(one, Math.ceil(((await sizeOf(zero)) - (await sizeOf(one))) / 2 ** 20) + 2);
    expect(await sizeOf(one)).toBeGreaterThan(await sizeOf(zero));
    expect(await newAccountShard()).toBe(0);
  });
});
