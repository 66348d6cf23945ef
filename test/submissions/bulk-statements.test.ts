// Issue 30 › 3: a bulk create writes its submissions, submitters, members, invitations, trail entries and
// outbox events in multi-row inserts written as SQL text (src/db/row-inserts.ts; one statement per row
// made a 100-submission request build 900 statements), each within D1's 100 bound parameters with equal
// values bound once, and the rows land as before: per table in the request's order, ids in the payloads
// filled.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { observeD1, withD1Observers } from '../../src/db/observed-d1';
import { getAccount } from '../../src/db/queries/accounts';
import { insertResolvedEventsStatements, insertSubmissionEventsStatements } from '../../src/db/queries/submissions';
import { insertRows, SqlValue } from '../../src/db/row-inserts';
import { submissionEvents } from '../../src/db/schema';
import { createSubmissions, submissionsThisMonth, templateForSubmissions } from '../../src/services/submissions/create-submissions';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { accountEvents, scopeOf } from '../shard-fixtures';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';

const BULK = 30;

/** The parameters a batch statement binds: drizzle builders tell by `toSQL`, raw SQL (row-inserts.ts) by `getQuery`. */
function boundBy(statement: unknown): number {
  const s = statement as { toSQL?(): { params: unknown[] }; getQuery(): { params: unknown[] } };
  return (s.toSQL ? s.toSQL() : s.getQuery()).params.length;
}

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ['Buyer', 'Seller']);
});

describe('a bulk create', () => {
  it('builds its trail and outbox rows as multi-row inserts binding each repeated value once', async () => {
    const shard = await shardOf(owner.accountId);
    const db = createDb(shard);
    const events = Array.from({ length: 25 }, (_, i) => ({
      event: 'form.created' as const,
      data: { n: i },
      refs: {
        submissionIds: { '$.submission.id': `slug-${i}` },
        submitterIds: { '$.submitter.id': `signer-${i}` },
        submittersArray: { path: '$.submitters', submissionSlug: `slug-${i}` },
      },
    }));
    // Each event binds its payload and its two slugs; the account, event name and three JSON paths once.
    const eventStatements = insertResolvedEventsStatements(db, owner.accountId, events);
    expect(eventStatements.map(boundBy)).toEqual([5 + 25 * 3]);
    const trail = Array.from({ length: 25 }, (_, i) => ({
      ref: { submissionSlug: `slug-${i}` },
      submitterRef: { submitterSlug: `signer-${i}` },
      row: {
        accountId: owner.accountId,
        action: 'sent' as const,
        ip: '192.0.2.1',
        userAgent: 'test',
        data: { n: i },
        at: '2026-11-27T12:00:00.000Z',
      },
    }));
    // Each entry binds its two slugs and its data; the account, action, ip, user agent and date once.
    const trailStatements = insertSubmissionEventsStatements(db, trail);
    expect(trailStatements.map(boundBy)).toEqual([5 + 25 * 3]);
  });

  it('starts a new statement before one passes D1’s 100,000 bytes of SQL', async () => {
    const db = createDb(await shardOf(owner.accountId));
    // Five rows whose SQL is 30,000 bytes each (the text of a value computed in SQL, never a given value).
    const long = new SqlValue(`(SELECT id FROM submissions WHERE slug = ?${' '.repeat(30_000)})`, ['slug']);
    const rows = Array.from({ length: 5 }, (_, i) => ({ accountId: owner.accountId, submissionId: long, action: 'sent', data: { i } }));
    const statements = insertRows(db, submissionEvents, rows);
    const lengths = statements.map((s) => (s as unknown as { getQuery(): { sql: string } }).getQuery().sql.length);
    expect(lengths).toHaveLength(2);
    for (const length of lengths) expect(length).toBeLessThanOrEqual(100_000);
  });

  it('stores 100 submissions of two signers in one batch of 27 writes (241 with drizzle’s inserts, 471 with one per row) that also reads them back', async () => {
    const scope = await scopeOf(owner.accountId);
    const account = (await getAccount(createDb(env.CONTROL_DB), owner.accountId))!;
    // The shard's own database, counting the statements of each batch it runs.
    const batches: number[] = [];
    const bound: number[] = [];
    const db = new Proxy(scope.db, {
      get(target, key) {
        if (key === 'batch')
          return (statements: Parameters<Db['batch']>[0]) => {
            batches.push(statements.length);
            bound.push(...statements.map(boundBy));
            return target.batch(statements);
          };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // Every D1 call the two make, batches or not (the observers see each call on the binding).
    let calls = 0;
    const counted = <T>(work: () => Promise<T>) =>
      withD1Observers(() => {
        observeD1((_call, run) => {
          calls += 1;
          return run();
        });
        return work();
      });
    // What the handler reads before planning, side by side: the template with its documents, and the
    // month's count a pro plan's early check needs.
    const [source, usedThisMonth] = await counted(() =>
      Promise.all([templateForSubmissions(db, owner.accountId, template.id), submissionsThisMonth(db, account)]),
    );
    expect(usedThisMonth).toBe(0);
    const readCalls = calls;
    const inputs = Array.from({ length: 100 }, (_, i) => ({
      submitters: [
        { role: 'Buyer', email: `count-buyer-${i}@example.com` },
        { role: 'Seller', email: `count-seller-${i}@example.com` },
      ],
    }));
    const base = 'http://localhost';
    const created = await counted(() =>
      createSubmissions(
        {
          db,
          account,
          userId: owner.userId,
          serviceName: 'Test',
          apiBase: base,
          requestBase: base,
          upgradeUrl: `${base}/billing`,
          usedThisMonth,
        },
        source,
        inputs,
        'api',
      ),
    );
    expect(created.map((c) => c.submitters.map((s) => [s.email, s.status]))).toEqual(
      inputs.map((input) => [
        [input.submitters[0].email, 'sent'],
        [input.submitters[1].email, 'waiting'],
      ]),
    );
    // The plan-limit guard, then as many rows per insert as 100 distinct values hold: 2 inserts of the 100
    // submissions, 8 of the 200 submitters, 6 of the 100 invitations, 3 of the 200 trail entries and 7 of
    // the 500 outbox events. drizzle's multi-row inserts bound every value (70 inserts of submissions and
    // submitters, 10 trail or outbox rows per insert) with an insert per invitation: 241; a statement per
    // row made it 471. The batch ends with the three reads of what it stored (submissions, submitters,
    // members), and the template was read with its documents in one batch before it, beside the month's
    // count the plan's early check reads (a pro account): two round trips in all, the create one call.
    // The template, its documents, the count and the read-back were seven calls in seven rounds.
    expect(batches).toEqual([2, 30]);
    expect([readCalls, calls - readCalls]).toEqual([2, 1]);
    expect(Math.max(...bound)).toBeLessThanOrEqual(100);
  });

  it('stores every submission’s events in order with their ids filled, and its trail', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        submissions: Array.from({ length: BULK }, (_, i) => ({
          submitters: [
            { role: 'Buyer', email: `buyer-${i}@example.com` },
            { role: 'Seller', email: `seller-${i}@example.com` },
          ],
        })),
      },
    });
    expect(res.status).toBe(201);
    const created = res.json as { id: number; submitters: { id: number; role: string; status: string }[] }[];
    expect(created).toHaveLength(BULK);
    const ids = created.map((s) => s.id);
    const rows = await accountEvents(
      owner.accountId,
      `json_extract(data, '$.submission.id') IN (${ids.map(() => '?').join(', ')})`,
      ...ids,
    );
    // Sequential signing: the buyer is invited, the seller waits. Per submission, in id order as written.
    const expected = created.flatMap((s) => {
      const [buyer, seller] = [s.submitters.find((x) => x.role === 'Buyer')!, s.submitters.find((x) => x.role === 'Seller')!];
      return [
        ['submission.created', s.id, null],
        ['form.created', s.id, buyer.id],
        ['submitter.sent', s.id, buyer.id],
        ['form.created', s.id, seller.id],
        ['submission.sent', s.id, null],
      ];
    });
    expect(
      rows.map((r) => {
        const data = JSON.parse(r.data);
        return [r.event, data.submission.id, data.submitter?.id ?? null];
      }),
    ).toEqual(expected);
    const listed = JSON.parse(rows[0].data).submission.submitters as { id: number; status: string }[];
    expect(listed.map((s) => [s.id, s.status])).toEqual(created[0].submitters.map((s) => [s.id, s.status]));
    const shard = await shardOf(owner.accountId);
    const { results: trail } = await shard
      .prepare(
        `SELECT submission_id, submitter_id, action FROM submission_events WHERE submission_id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
      )
      .bind(...ids)
      .all<{ submission_id: number; submitter_id: number | null; action: string }>();
    expect(trail.map((t) => [t.action, t.submission_id, t.submitter_id])).toEqual(
      created.flatMap((s) => [
        ['created', s.id, null],
        ['sent', s.id, s.submitters.find((x) => x.role === 'Buyer')!.id],
      ]),
    );
  });
});
