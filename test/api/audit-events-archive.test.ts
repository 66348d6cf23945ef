// GET /api/audit_events reads archived parts in R2 as if they were still rows: the same pages, cursors
// and filters before and after the archive step ran; an altered part is never served.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { archiveAuditEvents } from '../../src/scheduled/audit-archive';
import { auditShard, createAuditAccount, archiveRows, insertAuditEvent, insertHistory, liveAuditIds, NOW } from '../audit-fixtures';
import { api, createToken, type TestAccount } from '../helpers';

const LIMIT = 4;

/** Every page of a walk, newest first through `next`, then back up through `prev` from the oldest. */
async function walk(account: TestAccount, query = '') {
  // A token per walk: a walk is more requests than one token's rate limit allows in a minute.
  const token = await createToken(account.accountId, account.userId);
  const get = async (cursor: string) => {
    const res = await api('GET', `/api/audit_events?limit=${LIMIT}${query}${cursor}`, { token });
    expect(res.status).toBe(200);
    return res.json as { data: { id: number }[]; pagination: { count: number; next: number | null; prev: number | null } };
  };
  const forward = [await get('')];
  while (forward[forward.length - 1].pagination.next !== null)
    forward.push(await get(`&after=${forward[forward.length - 1].pagination.next}`));
  const oldest = forward.flatMap((page) => page.data).at(-1);
  const backward = oldest ? [await get(`&before=${oldest.id}`)] : [];
  while (backward.length && backward[backward.length - 1].pagination.prev !== null)
    backward.push(await get(`&before=${backward[backward.length - 1].pagination.prev}`));
  return { forward, backward };
}

const FILTERS = [
  '',
  '&action=submission.create',
  '&resource_type=template',
  '&resource_id=r-3',
  '&created_after=2026-05-15T00:00:00Z',
  '&created_before=2026-07-11T09:00:00Z',
  '&created_after=2026-06-01T00:00:00%2B02:00&created_before=2026-09-01T00:00:00Z&action=template.create',
];

let a: TestAccount;
let b: TestAccount;
const walksBefore = new Map<string, Awaited<ReturnType<typeof walk>>>();
let userWalkBefore: Awaited<ReturnType<typeof walk>>;

beforeAll(async () => {
  a = await createAuditAccount();
  b = await createAuditAccount();
  await insertHistory([
    { ...a, perDay: 2 },
    { ...b, perDay: 1 },
  ]);
  for (const query of FILTERS) walksBefore.set(query, await walk(a, query));
  userWalkBefore = await walk(a, `&user_id=${a.userId}`);
  // Parts of 3 events: pages of 4 straddle parts, and parts straddle pages.
  while ((await archiveAuditEvents(createDb(auditShard()), env.FILES, NOW, { partEvents: 3, maxParts: 10 })).parts > 0);
});

describe('audit trail with archived events', () => {
  it('has moved most of the history out of D1 before the comparisons', async () => {
    expect((await archiveRows(a.accountId)).length).toBe(4 * 3);
    expect((await liveAuditIds(a.accountId)).length).toBe(4 * 4 * 2);
  });

  it('gives the same pages, in the same order, with the same cursors in both directions', async () => {
    const after = await walk(a);
    expect(after).toEqual(walksBefore.get(''));
    // The walk covers all 64 events, most of them archived.
    expect(after.forward.flatMap((page) => page.data).length).toBe(8 * 4 * 2);
  });

  for (const query of FILTERS.slice(1)) {
    it(`gives the same pages with the filter ${decodeURIComponent(query.slice(1))}`, async () => {
      const before = walksBefore.get(query)!;
      expect(before.forward.flatMap((page) => page.data).length).toBeGreaterThan(LIMIT);
      expect(await walk(a, query)).toEqual(before);
    });
  }

  it('gives the same pages filtered by user_id', async () => {
    expect(await walk(a, `&user_id=${a.userId}`)).toEqual(userWalkBefore);
  });

  it('never shows another account’s archived events', async () => {
    const ids = (await walk(b)).forward.flatMap((page) => page.data.map((event) => event.id));
    expect(ids.length).toBe(8 * 4);
    const ofA = new Set((await walk(a)).forward.flatMap((page) => page.data.map((event) => event.id)));
    expect(ids.some((id) => ofA.has(id))).toBe(false);
  });

  it('gives the same pages when events were written out of time order', async () => {
    const c = await createAuditAccount();
    for (const createdAt of ['2026-03-01', '2026-04-01', '2026-03-02', '2026-05-01', '2026-03-03', '2026-04-02', '2026-09-01']) {
      await insertAuditEvent(c.accountId, {
        action: 'x.y',
        resourceType: null,
        resourceId: null,
        userId: null,
        createdAt: `${createdAt}T00:00:00.000Z`,
      });
    }
    const before = await walk(c);
    while ((await archiveAuditEvents(createDb(auditShard()), env.FILES, NOW, { partEvents: 3, maxParts: 10 })).parts > 0);
    expect((await liveAuditIds(c.accountId)).length).toBe(1);
    expect(await walk(c)).toEqual(before);
  });

  it('never reads a month past the 7 years’ retention, even while its deletion is half done', async () => {
    const c = await createAuditAccount();
    const event = (createdAt: string) =>
      insertAuditEvent(c.accountId, { action: 'x.y', resourceType: null, resourceId: null, userId: null, createdAt });
    await event('2019-10-31T23:59:59.000Z');
    const kept = await event('2019-11-01T00:00:00.000Z');
    while ((await archiveAuditEvents(createDb(auditShard()), env.FILES, NOW, { maxParts: 10, maxExpiredMonths: 0 })).parts > 0);
    // The sweep deletes the objects first: here it stopped before the index rows.
    const [expired] = await archiveRows(c.accountId);
    await env.FILES.delete(expired.r2_key);
    const res = await api('GET', '/api/audit_events?limit=100', { token: c.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((e: { id: number }) => e.id)).toEqual([kept]);
  });

  it('answers 500 with a reference, and no events, when an archived part was altered', async () => {
    const c = await createAuditAccount();
    await insertHistory([{ ...c, perDay: 1 }]);
    while ((await archiveAuditEvents(createDb(auditShard()), env.FILES, NOW, { partEvents: 3, maxParts: 10 })).parts > 0);
    const [part] = await archiveRows(c.accountId);
    // Seen once intact, so that an isolate's copy of the part cannot hide the change.
    const all = `/api/audit_events?limit=100`;
    expect((await api('GET', all, { token: c.token })).status).toBe(200);
    const original = await (await env.FILES.get(part.r2_key))!.text();
    await env.FILES.put(part.r2_key, original.replace('"status":201', '"status":200'));
    const res = await api('GET', all, { token: c.token });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: 'Internal server error.', reference: res.headers.get('X-Request-Id') });
  });

  it('answers 500 when an archived part is missing from R2', async () => {
    const c = await createAuditAccount();
    await insertHistory([{ ...c, perDay: 1 }]);
    while ((await archiveAuditEvents(createDb(auditShard()), env.FILES, NOW, { partEvents: 3, maxParts: 10 })).parts > 0);
    const [part] = await archiveRows(c.accountId);
    await env.FILES.delete(part.r2_key);
    expect((await api('GET', '/api/audit_events?limit=100', { token: c.token })).status).toBe(500);
  });
});
