// The cron's audit archive step: whole months past 90 days move from D1 to checksummed NDJSON parts in
// R2, each event exactly once, however often (or however interrupted) the step runs.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { handleScheduled } from '../../src/scheduled';
import { archiveAuditEvents } from '../../src/scheduled/audit-archive';
import { sha256Hex } from '../../src/lib/crypto';
import { recordArchivedPart } from '../../src/db/queries/audit-archives';
import {
  auditShard,
  createAuditAccount,
  archiveRows,
  archivedAuditIds,
  insertAuditEvent,
  insertHistory,
  liveAuditIds,
  NOW,
} from '../audit-fixtures';

const db = () => createDb(auditShard());

/** Runs the step until it finds nothing more to archive. */
async function archiveAll(options: { partEvents?: number } = {}, files: R2Bucket = env.FILES) {
  for (let run = 0; run < 100; run += 1) {
    if ((await archiveAuditEvents(db(), files, NOW, { ...options, maxParts: 10 })).parts === 0) return;
  }
  throw new Error('the archive never finished');
}

async function accountWithHistory(perDay = 2) {
  const a = await createAuditAccount();
  await insertHistory([{ ...a, perDay }]);
  return a;
}

async function createdAtOf(ids: number[]): Promise<string[]> {
  const { results } = await auditShard()
    .prepare('SELECT created_at FROM audit_events WHERE id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(ids))
    .all<{ created_at: string }>();
  return results.map((r) => r.created_at);
}

describe('audit archive', () => {
  it('moves the events of months wholly older than 90 days out of D1 and keeps the rest', async () => {
    const a = await accountWithHistory();
    const before = await liveAuditIds(a.accountId);
    await archiveAll({ partEvents: 3 });
    const live = await liveAuditIds(a.accountId);
    // April to July go; August (partly younger than 90 days) to November stay.
    expect((await createdAtOf(live)).every((t) => t >= '2026-08-01')).toBe(true);
    expect(live.length).toBe(4 * 4 * 2);
    expect([...live, ...(await archivedAuditIds(a.accountId))].sort((x, y) => x - y)).toEqual(before);
  });

  it('writes each part as NDJSON under audit/<account>/<month>/ with its SHA-256 in the index and in R2 metadata', async () => {
    const a = await accountWithHistory();
    await archiveAll({ partEvents: 3 });
    const rows = await archiveRows(a.accountId);
    expect(rows.map((r) => r.month)).toEqual([
      '2026-04',
      '2026-04',
      '2026-04',
      '2026-05',
      '2026-05',
      '2026-05',
      '2026-06',
      '2026-06',
      '2026-06',
      '2026-07',
      '2026-07',
      '2026-07',
    ]);
    for (const row of rows) {
      expect(row.r2_key).toBe(`audit/${a.accountId}/${row.month}/${row.first_id}-${row.last_id}.ndjson`);
      const object = await env.FILES.get(row.r2_key);
      const bytes = new Uint8Array(await object!.arrayBuffer());
      expect(await sha256Hex(bytes)).toBe(row.sha256);
      expect(object!.customMetadata?.sha256).toBe(row.sha256);
      expect(bytes.byteLength).toBe(row.byte_size);
      const lines = new TextDecoder()
        .decode(bytes)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.length).toBe(row.event_count);
      expect(lines.every((line) => line.account_id === a.accountId && line.created_at.startsWith(row.month))).toBe(true);
    }
  });

  it('keeps every column of an event in its NDJSON line', async () => {
    const a = await createAuditAccount();
    await auditShard()
      .prepare(
        `INSERT INTO audit_events (account_id, user_id, access_token_id, actor, action, resource_type, resource_id, method, path, status, ip, user_agent, request_id, created_at)
       VALUES (?, ?, 7, 'tok_abc', 'account.update', 'account', '42', 'PUT', '/api/settings/account', 200, '203.0.113.1', 'ua/1', 'req-1', '2026-03-02T10:00:00.000Z')`,
      )
      .bind(a.accountId, a.userId)
      .run();
    const row = await auditShard().prepare('SELECT * FROM audit_events WHERE account_id = ?').bind(a.accountId).first();
    await archiveAll();
    const [part] = await archiveRows(a.accountId);
    expect(JSON.parse((await (await env.FILES.get(part.r2_key))!.text()).trim())).toEqual(row);
  });

  it('archives at most maxParts parts of at most partEvents events per run', async () => {
    await accountWithHistory(3);
    const parts = (await archiveRows()).length;
    const result = await archiveAuditEvents(db(), env.FILES, NOW, { partEvents: 5, maxParts: 2 });
    expect(result).toEqual({ parts: 2, events: 10, expiredMonths: 0 });
    expect((await archiveRows()).length).toBe(parts + 2);
  });

  it('changes nothing when run again after everything due is archived', async () => {
    const a = await accountWithHistory();
    await archiveAll({ partEvents: 3 });
    const rows = await archiveRows();
    const live = await liveAuditIds(a.accountId);
    expect(await archiveAuditEvents(db(), env.FILES, NOW, { partEvents: 3 })).toEqual({ parts: 0, events: 0, expiredMonths: 0 });
    expect(await archiveRows()).toEqual(rows);
    expect(await liveAuditIds(a.accountId)).toEqual(live);
  });

  it('neither duplicates nor loses events when a run stops between the R2 write and the D1 batch', async () => {
    await archiveAll();
    const a = await accountWithHistory();
    const before = await liveAuditIds(a.accountId);
    // The real bucket, except that the run dies right after its first object is stored.
    const crashing = new Proxy(env.FILES, {
      get(target, name) {
        if (name !== 'put') return Reflect.get(target, name).bind(target);
        return async (...args: Parameters<R2Bucket['put']>) => {
          await target.put(...args);
          throw new Error('crashed after the R2 write');
        };
      },
    });
    await expect(archiveAuditEvents(db(), crashing, NOW, { partEvents: 3 })).rejects.toThrow('crashed after the R2 write');
    expect(await archiveRows(a.accountId)).toEqual([]);
    expect(await liveAuditIds(a.accountId)).toEqual(before);

    await archiveAll({ partEvents: 3 });
    const archived = await archivedAuditIds(a.accountId);
    expect(new Set(archived).size).toBe(archived.length);
    expect([...(await liveAuditIds(a.accountId)), ...archived].sort((x, y) => x - y)).toEqual(before);
  });

  it('archives each event once when two runs overlap', async () => {
    await archiveAll();
    const a = await accountWithHistory();
    const before = await liveAuditIds(a.accountId);
    await Promise.allSettled([archiveAll({ partEvents: 3 }), archiveAll({ partEvents: 3 })]);
    await archiveAll({ partEvents: 3 });
    const archived = await archivedAuditIds(a.accountId);
    expect(new Set(archived).size).toBe(archived.length);
    expect([...(await liveAuditIds(a.accountId)), ...archived].sort((x, y) => x - y)).toEqual(before);
  });

  it('refuses to index a part whose events are not all still in D1, and then deletes none of them', async () => {
    const a = await createAuditAccount();
    const first = await insertAuditEvent(a.accountId, {
      action: 'x.y',
      resourceType: null,
      resourceId: null,
      userId: null,
      createdAt: '2026-02-01T00:00:00.000Z',
    });
    const part = {
      accountId: a.accountId,
      month: '2026-02',
      firstId: first,
      lastId: first + 1_000_000,
      eventCount: 2,
      sha256: 'f'.repeat(64),
      r2Key: `audit/${a.accountId}/2026-02/x.ndjson`,
      byteSize: 1,
    };
    await expect(recordArchivedPart(db(), part, [first, first + 1_000_000])).rejects.toThrow();
    expect(await archiveRows(a.accountId)).toEqual([]);
    expect(await liveAuditIds(a.accountId)).toEqual([first]);
  });

  it('refuses to index a part whose id range overlaps an archived part', async () => {
    await archiveAll();
    const a = await createAuditAccount();
    const event = (createdAt: string) =>
      insertAuditEvent(a.accountId, { action: 'x.y', resourceType: null, resourceId: null, userId: null, createdAt });
    const first = await event('2026-02-01T00:00:00.000Z');
    const second = await event('2026-02-02T00:00:00.000Z');
    const part = (id: number, key: string) => ({
      accountId: a.accountId,
      month: '2026-02',
      firstId: id,
      lastId: second,
      eventCount: 1,
      sha256: 'f'.repeat(64),
      r2Key: key,
      byteSize: 1,
    });
    await recordArchivedPart(db(), part(first, `audit/${a.accountId}/2026-02/a.ndjson`), [first]);
    await expect(recordArchivedPart(db(), part(second, `audit/${a.accountId}/2026-02/b.ndjson`), [second])).rejects.toThrow();
    expect(await liveAuditIds(a.accountId)).toEqual([second]);
    // An event inside an archived range stops the archive step (it says so); the others here need it to run.
    await auditShard().prepare('DELETE FROM audit_events WHERE id = ?').bind(second).run();
  });

  it('ends a part before an event of another month that lies inside its id range', async () => {
    await archiveAll();
    const a = await createAuditAccount();
    const event = (createdAt: string) =>
      insertAuditEvent(a.accountId, { action: 'x.y', resourceType: null, resourceId: null, userId: null, createdAt });
    // Written out of time order, as only rows inserted with chosen times can be.
    const march1 = await event('2026-03-01T00:00:00.000Z');
    const april = await event('2026-04-01T00:00:00.000Z');
    const march2 = await event('2026-03-02T00:00:00.000Z');
    await archiveAll();
    const ranges = (await archiveRows(a.accountId)).map((r) => [r.first_id, r.last_id]);
    expect(ranges).toEqual([
      [march1, march1],
      [april, april],
      [march2, march2],
    ]);
  });

  it('deletes the parts of months that ended more than 7 years ago, orphaned objects included, and keeps the rest', async () => {
    await archiveAll();
    const a = await createAuditAccount();
    const event = (createdAt: string) =>
      insertAuditEvent(a.accountId, { action: 'x.y', resourceType: null, resourceId: null, userId: null, createdAt });
    await event('2019-10-31T23:59:59.000Z');
    const kept = await event('2019-11-01T00:00:00.000Z');
    await archiveAuditEvents(db(), env.FILES, NOW, { maxExpiredMonths: 0 });
    // An object an interrupted run left under the month, never indexed.
    await env.FILES.put(`audit/${a.accountId}/2019-10/orphan.ndjson`, 'x');

    expect((await archiveAuditEvents(db(), env.FILES, NOW)).expiredMonths).toBe(1);
    expect((await archiveRows(a.accountId)).map((r) => r.month)).toEqual(['2019-11']);
    expect((await env.FILES.list({ prefix: `audit/${a.accountId}/2019-10/` })).objects).toEqual([]);
    expect(await archivedAuditIds(a.accountId)).toEqual([kept]);
  });

  it('runs as a step of the cron', async () => {
    const a = await accountWithHistory(1);
    await handleScheduled(env, NOW);
    expect((await archiveRows(a.accountId)).length).toBeGreaterThan(0);
  });
});
