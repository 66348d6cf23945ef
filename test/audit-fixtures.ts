// Audit events written straight to D1 with chosen times, and the archive as D1 and R2 hold it.
import { env } from 'cloudflare:test';
import { createAccount, type TestAccount } from './helpers';

/**
 * The shard these tests keep their accounts on. The archive works one shard at a time; several accounts
 * on one shard make their audit ids interleave in one table, which the archive must keep apart.
 */
export const AUDIT_SHARD = 1;
export const auditShard = (): D1Database => env.SHARD_1!;

/** An account placed on AUDIT_SHARD (before it has any tenant row). */
export async function createAuditAccount(): Promise<TestAccount> {
  const account = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = ? WHERE id = ?').bind(AUDIT_SHARD, account.accountId).run();
  return account;
}

/** With this clock, months before 2026-08 are wholly older than 90 days (2026-08-27 is 90 days back). */
export const NOW = Date.parse('2026-11-25T12:00:00.000Z');

export type AuditFixture = {
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  userId: number | null;
  createdAt: string;
};

export async function insertAuditEvent(accountId: number, event: AuditFixture): Promise<number> {
  const row = await auditShard()
    .prepare(
      `INSERT INTO audit_events (account_id, user_id, actor, action, resource_type, resource_id, method, path, status, ip, user_agent, request_id, created_at)
     VALUES (?, ?, 'tok_fixture', ?, ?, ?, 'POST', '/api/x', 201, '203.0.113.9', 'fixture/1.0', ?, ?) RETURNING id`,
    )
    .bind(accountId, event.userId, event.action, event.resourceType, event.resourceId, crypto.randomUUID(), event.createdAt)
    .first<{ id: number }>();
  return row!.id;
}

const ACTIONS = ['template.create', 'submission.create', 'access_token.create'];

/**
 * A history from April to November 2026 for each account, inserted in time order with the accounts
 * interleaved (so their ids interleave too): `perDay` events on days 3, 11, 19 and 27 of each month.
 */
export async function insertHistory(accounts: { accountId: number; userId: number; perDay: number }[]): Promise<void> {
  const counts = new Map<number, number>();
  for (let month = 4; month <= 11; month += 1) {
    for (const day of [3, 11, 19, 27]) {
      for (const account of accounts) {
        for (let i = 0; i < account.perDay; i += 1) {
          const n = (counts.get(account.accountId) ?? 0) + 1;
          counts.set(account.accountId, n);
          const createdAt = `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(8 + i).padStart(2, '0')}:15:00.000Z`;
          await insertAuditEvent(account.accountId, {
            action: ACTIONS[n % ACTIONS.length],
            resourceType: n % 2 ? 'submission' : 'template',
            resourceId: `r-${n % 5}`,
            userId: n % 4 === 0 ? null : account.userId,
            createdAt,
          });
        }
      }
    }
  }
}

export async function liveAuditIds(accountId: number): Promise<number[]> {
  const { results } = await auditShard()
    .prepare('SELECT id FROM audit_events WHERE account_id = ? ORDER BY id')
    .bind(accountId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

export type ArchiveRow = {
  account_id: number;
  month: string;
  first_id: number;
  last_id: number;
  event_count: number;
  sha256: string;
  r2_key: string;
  byte_size: number;
};

export async function archiveRows(accountId?: number): Promise<ArchiveRow[]> {
  const query =
    accountId === undefined
      ? auditShard().prepare('SELECT * FROM audit_archives ORDER BY first_id')
      : auditShard().prepare('SELECT * FROM audit_archives WHERE account_id = ? ORDER BY first_id').bind(accountId);
  return (await query.all<ArchiveRow>()).results;
}

/** Every event id the account's archived parts hold, read from R2. */
export async function archivedAuditIds(accountId: number): Promise<number[]> {
  const ids: number[] = [];
  for (const row of await archiveRows(accountId)) {
    const object = await env.FILES.get(row.r2_key);
    for (const line of (await object!.text()).split('\n').filter(Boolean)) ids.push(JSON.parse(line).id);
  }
  return ids.sort((a, b) => a - b);
}
