// Issue 21 › 8: a bulk create is stored whole or not at all — two bulk requests racing for the last
// submissions of the month never leave part of either behind.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';

const PRO_MONTHLY = 5_000;
const BULK = 100;

let owner: TestAccount;
let template: TemplateFixture;
/** The owner's shard, where its submissions are stored. */
let shard: D1Database;

async function submissionCount(): Promise<number> {
  return (await shard.prepare('SELECT count(*) AS n FROM submissions WHERE account_id = ?').bind(owner.accountId).first<{ n: number }>())!
    .n;
}

/** Copies the account's one submission until the account has `total` this month. */
async function seedSubmissions(total: number) {
  const columns = (await shard.prepare('PRAGMA table_info(submissions)').all<{ name: string }>()).results
    .map((c) => c.name)
    .filter((c) => c !== 'id' && c !== 'slug');
  const list = columns.join(', ');
  await shard
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO submissions (slug, ${list}) SELECT 'seed-' || i || '-' || s.slug, ${columns.map((c) => `s.${c}`).join(', ')}
     FROM n, (SELECT * FROM submissions WHERE account_id = ? LIMIT 1) s`,
    )
    .bind(total - (await submissionCount()), owner.accountId)
    .run();
}

function bulk(tag: string) {
  return api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      send_email: false,
      submissions: Array.from({ length: BULK }, (_, i) => ({ submitters: [{ email: `${tag}-${i}@example.com` }] })),
    },
  });
}

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  shard = await shardOf(owner.accountId);
  template = await createTemplate(owner.token);
  expect(
    (
      await api('POST', '/api/submissions', {
        token: owner.token,
        body: { template_id: template.id, send_email: false, submitters: [{ email: 'first@example.com' }] },
      })
    ).status,
  ).toBe(201);
});

describe('bulk creates', () => {
  it('stores none of a request whose last submissions fail in the database', async () => {
    // A real failure late in the write: D1 refuses the 90th submission's submitter.
    await shard
      .prepare(
        "CREATE TRIGGER poison BEFORE INSERT ON submitters WHEN NEW.email = 'poison@example.com' BEGIN SELECT RAISE(ABORT, 'poisoned row'); END",
      )
      .run();
    try {
      const res = await api('POST', '/api/submissions', {
        token: owner.token,
        body: {
          template_id: template.id,
          send_email: false,
          submissions: Array.from({ length: 100 }, (_, i) => ({
            submitters: [{ email: i === 89 ? 'poison@example.com' : `late-${i}@example.com` }],
          })),
        },
      });
      expect(res.status).toBe(500);
      const stored = (await shard
        .prepare("SELECT count(*) AS n FROM submitters WHERE account_id = ? AND email LIKE 'late-%'")
        .bind(owner.accountId)
        .first<{ n: number }>())!.n;
      expect(stored).toBe(0);
    } finally {
      await shard.prepare('DROP TRIGGER poison').run();
    }
  });
  it('store every submission of a request or none, when two race for the month’s last places', async () => {
    // Room for one bulk and half of another.
    await seedSubmissions(PRO_MONTHLY - BULK - 50);
    const before = await submissionCount();
    const answers = await Promise.all([bulk('a'), bulk('b')]);
    const created = answers.filter((a) => a.status === 201);
    for (const refused of answers.filter((a) => a.status !== 201)) expect(refused.status).toBe(403);
    expect(created).toHaveLength(1);
    expect(created[0].json).toHaveLength(BULK);
    expect(await submissionCount()).toBe(before + BULK);
    for (const tag of ['a', 'b']) {
      const stored = (await shard
        .prepare('SELECT count(*) AS n FROM submitters WHERE account_id = ? AND email LIKE ?')
        .bind(owner.accountId, `${tag}-%`)
        .first<{ n: number }>())!.n;
      expect([0, BULK]).toContain(stored);
    }
  }, 60_000);
});
