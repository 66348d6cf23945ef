// Issue 14 › 1–2: two accounts on different shards create, sign and seal submissions side by side, and
// each tenant row lands on its own account's shard only. A signing link names its account (the slug's
// account part, src/services/submissions/links.ts), so a link altered to name another account, or none,
// opens nothing.
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { toBase62 } from '../../src/lib/random';
import type { SealingQueueBody } from '../../src/env';
import type { WebhookMessage } from '../../src/env';
import { allShards, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { page, acceptDisclosure } from '../signing/fixtures';
import { completeValues, createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { receiverHook } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

/** Every table an account owns (docs/scaling.md): each has `account_id`, and lives on the account's shard. */
const TENANT_TABLES = [
  'templates',
  'template_documents',
  'template_versions',
  'saved_fields',
  'submissions',
  'submitters',
  'submission_events',
  'submission_documents',
  'signing_identities',
  'signing_verifications',
  'signing_uploads',
  'events',
  'webhooks',
  'webhook_deliveries',
  'messages',
  'audit_events',
];

/** The tables the flow below writes for each account: each must hold rows on the account's own shard. */
const WRITTEN_TABLES = [
  'templates',
  'template_documents',
  'template_versions',
  'submissions',
  'submitters',
  'submission_events',
  'submission_documents',
  'events',
  'webhooks',
  'webhook_deliveries',
  'messages',
  'audit_events',
];

type Tenant = {
  account: TestAccount;
  shard: number;
  template: TemplateFixture;
  submission: { id: number; submitters: { id: number; slug: string; role: string; email: string }[] };
  receiver: string;
};

let counter = 0;

async function runQueue<Body>(queue: string, bodies: (Body & ShardStamp)[]) {
  const batch = createMessageBatch<Body & ShardStamp>(
    queue,
    bodies.map((body) => ({ id: `cross-${++counter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The page sends values keyed by field uuid. */
function pageValues(template: TemplateFixture, role: string): Record<string, unknown> {
  const byName = completeValues(role);
  return Object.fromEntries(template.fields.filter((f) => f.name in byName).map((f) => [f.uuid, byName[f.name as keyof typeof byName]]));
}

/** An account with a webhook, one submission signed by one signer on the page and one through the API, sealed, its events delivered. */
async function tenant(): Promise<Tenant> {
  const account = await createAccount({ plan: 'pro' });
  const shard = await shardNumberOf(account.accountId);
  const { receiver } = await receiverHook(account.token, { events: ['submission.completed'] });
  const template = await createTemplate(account.token, ['First', 'Second']);
  const created = await api('POST', '/api/submissions', {
    token: account.token,
    body: {
      template_id: template.id,
      submitters_order: 'parallel',
      submitters: ['First', 'Second'].map((role) => ({
        role,
        email: `${role.toLowerCase()}-${account.accountId}@example.com`,
        name: `${role} Person`,
      })),
    },
  });
  if (created.status !== 201) throw new Error(`submission: ${created.status} ${created.text}`);
  const submission = created.json;
  const [first, second] = submission.submitters;
  const opened = await page('POST', `/s/${first.slug}/open`, { body: {} });
  if (opened.status !== 200) throw new Error(`open: ${opened.status} ${opened.text}`);
  await acceptDisclosure(first.slug);
  const submitted = await page('POST', `/s/${first.slug}/submit`, { body: { values: pageValues(template, 'First') } });
  if (submitted.status !== 200) throw new Error(`submit: ${submitted.status} ${submitted.text}`);
  const completed = await api('PUT', `/api/submitters/${second.id}`, {
    token: account.token,
    body: { values: completeValues('Second'), completed: true },
  });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${completed.text}`);

  // Background work as the queues would run it, each message stamped with the account's shard.
  await runQueue<SealingQueueBody>('signing-service-sealing', [{ type: 'seal', submissionId: submission.id, shard }]);
  await runQueue<WebhookMessage>('signing-service-webhooks', [{ kind: 'drain', shard }]);
  const { results } = await (await shardOf(account.accountId))
    .prepare("SELECT delivery_uuid FROM webhook_deliveries WHERE account_id = ? AND status = 'pending'")
    .bind(account.accountId)
    .all<{ delivery_uuid: string }>();
  await runQueue<WebhookMessage>(
    'signing-service-webhooks',
    results.map((r) => ({ kind: 'deliver', deliveryUuid: r.delivery_uuid, shard })),
  );
  return { account, shard, template, submission, receiver };
}

async function count(db: D1Database, table: string, accountId: number): Promise<number> {
  return (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`).bind(accountId).first<{ n: number }>())!.n;
}

/** `slug` with its account part naming `accountId` instead (the shape newSlug gives: 16 random, account, its length). */
function slugNaming(slug: string, accountId: number): string {
  const account = toBase62(accountId);
  return `${slug.slice(0, 16)}${account}${toBase62(account.length)}`;
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  a = await tenant();
  b = await tenant();
}, 60_000);

describe('two accounts on different shards', () => {
  it('are placed on different shards', () => {
    expect(allShards().length).toBeGreaterThanOrEqual(2);
    expect(a.shard).not.toBe(b.shard);
  });

  it('each complete and seal a submission signed through the signing page and the API', async () => {
    for (const t of [a, b]) {
      const read = await api('GET', `/api/submissions/${t.submission.id}`, { token: t.account.token });
      expect(read.status).toBe(200);
      expect(read.json.status).toBe('completed');
      expect(read.json.submitters.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
      const documents = await api('GET', `/api/submissions/${t.submission.id}/documents`, { token: t.account.token });
      expect(documents.json.sealed).toBe(true);
      expect(documents.json.documents).toHaveLength(1);
    }
  });

  it("deliver each account's webhook events to its own endpoint only", async () => {
    for (const [t, other] of [
      [a, b],
      [b, a],
    ]) {
      const delivered = (await receivedBy(t.receiver)).map(
        (d) => JSON.parse(d.body) as { event: string; data: { submission: { id: number } } },
      );
      expect(delivered.filter((d) => d.event === 'submission.completed').map((d) => d.data.submission.id)).toEqual([t.submission.id]);
      expect(delivered.some((d) => d.data.submission.id === other.submission.id)).toBe(false);
    }
  });

  it("send each account's emails through the messages queue, whose messages carry the account's shard", async () => {
    for (const t of [a, b]) {
      const own = allShards()[t.shard];
      // The queue delivers in the background (to the development outbox): wait for it, within bounds.
      await vi.waitFor(
        async () => {
          const { results } = await own
            .prepare('SELECT kind, status FROM messages WHERE account_id = ? ORDER BY id')
            .bind(t.account.accountId)
            .all<{ kind: string; status: string }>();
          expect(results.length).toBeGreaterThan(0);
          expect(results.filter((m) => m.status !== 'sent')).toEqual([]);
        },
        { timeout: 8_000, interval: 100 },
      );
    }
  }, 20_000);

  it("see neither the other's submission nor its template", async () => {
    for (const [t, other] of [
      [a, b],
      [b, a],
    ]) {
      expect((await api('GET', `/api/submissions/${other.submission.id}`, { token: t.account.token })).status).toBe(404);
      expect((await api('GET', `/api/templates/${other.template.id}`, { token: t.account.token })).status).toBe(404);
      const listed = (await api('GET', '/api/submissions?limit=100', { token: t.account.token })).json.data.map(
        (s: { id: number }) => s.id,
      );
      expect(listed).toContain(t.submission.id);
      expect(listed).not.toContain(other.submission.id);
    }
  });

  it("store every tenant row on the account's own shard, none on the other shard or the control database", async () => {
    for (const [t, other] of [
      [a, b],
      [b, a],
    ]) {
      const own = allShards()[t.shard];
      const elsewhere = allShards()[other.shard];
      for (const table of WRITTEN_TABLES)
        expect({ table, rows: (await count(own, table, t.account.accountId)) > 0 }).toEqual({ table, rows: true });
      for (const table of TENANT_TABLES) {
        expect({ table, rows: await count(elsewhere, table, t.account.accountId) }).toEqual({ table, rows: 0 });
        expect({ table, rows: await count(env.CONTROL_DB, table, t.account.accountId) }).toEqual({ table, rows: 0 });
      }
    }
  });
});

describe('a signing link', () => {
  /** The signer's page and each kind of JSON route, all answering 404 for `slug`; nothing is opened or saved. */
  async function expectNotFound(slug: string, victim: Tenant) {
    const shown = await api('GET', `/s/${slug}`);
    expect(shown.status).toBe(404);
    expect(shown.text).toContain('This link does not work');
    expect(shown.text).not.toContain('First Name');
    const document = await api('GET', `/s/${slug}/documents/${crypto.randomUUID()}`);
    expect(document.status).toBe(404);
    for (const [method, path, body] of [
      ['POST', 'open', {}],
      ['PUT', 'values', { values: pageValues(victim.template, 'First') }],
      ['POST', 'submit', { values: pageValues(victim.template, 'First') }],
      ['POST', 'decline', { reason: 'Not mine' }],
    ] as const) {
      const res = await page(method, `/s/${slug}/${path}`, { body });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(typeof res.json.error).toBe('string');
    }
  }

  /** A pending submitter of `t`, whose link is the one altered below. */
  async function pendingSigner(t: Tenant) {
    const res = await api('POST', '/api/submissions', {
      token: t.account.token,
      body: {
        template_id: t.template.id,
        submitters_order: 'parallel',
        send_email: false,
        submitters: ['First', 'Second'].map((role) => ({ role, email: `${role.toLowerCase()}-pending@example.com` })),
      },
    });
    expect(res.status).toBe(201);
    return res.json.submitters[0] as { id: number; slug: string };
  }

  /** What an altered link must leave untouched: the submitter's state and values. */
  async function stateOf(t: Tenant, submitterId: number) {
    return (await shardOf(t.account.accountId))
      .prepare('SELECT status, opened_at, declined_at, "values" FROM submitters WHERE id = ?')
      .bind(submitterId)
      .first();
  }

  it('still opens the form when unaltered', async () => {
    const signer = await pendingSigner(a);
    const shown = await api('GET', `/s/${signer.slug}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('First Name');
  });

  it('answers 404 on the page and the JSON routes when its account part names an account on another shard', async () => {
    const signer = await pendingSigner(a);
    const before = await stateOf(a, signer.id);
    const altered = slugNaming(signer.slug, b.account.accountId);
    expect(altered).not.toBe(signer.slug);
    await expectNotFound(altered, a);
    expect(await stateOf(a, signer.id)).toEqual(before);
  });

  it('answers 404 on the page and the JSON routes when its account part names another account on the same shard', async () => {
    const signer = await pendingSigner(a);
    const before = await stateOf(a, signer.id);
    // Accounts alternate between shards (test/helpers.ts): make them until one shares a's shard.
    let neighbour = await createAccount();
    while ((await shardNumberOf(neighbour.accountId)) !== a.shard) neighbour = await createAccount();
    await expectNotFound(slugNaming(signer.slug, neighbour.accountId), a);
    expect(await stateOf(a, signer.id)).toEqual(before);
  });

  it('answers 404 on the page and the JSON routes when it names an account that does not exist', async () => {
    const signer = await pendingSigner(b);
    const before = await stateOf(b, signer.id);
    const missing = (await env.CONTROL_DB.prepare('SELECT max(id) + 1000 AS id FROM accounts').first<{ id: number }>())!.id;
    await expectNotFound(slugNaming(signer.slug, missing), b);
    expect(await stateOf(b, signer.id)).toEqual(before);
  });
});
