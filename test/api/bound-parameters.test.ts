// D1 binds at most 100 parameters per statement: lists, bulk creates and sweeps at their largest size
// must still answer (issue 21 › 13). Large fixtures are copied row by row in D1; every request under
// test goes through the Worker.
/// <reference types="vite/types/importMeta.d.ts" />
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { fanOutInserts } from '../../src/db/queries/webhook-deliveries';
import { insertPacked } from '../../src/db/bound-parameters';
import { templateDocuments } from '../../src/db/schema/index';
import type { NewWebhookDelivery } from '../../src/db/schema/index';
import { sweepUnsealed } from '../../src/scheduled/sealing-sweep';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { scopeOf } from '../shard-fixtures';
import { createTemplate } from '../submission-fixtures';

/** Past D1's limit of 100: enough rows for any one-parameter-per-row list to fail. */
const MANY = 100;

let owner: TestAccount;
/** The owner's shard: every fixture row is copied there, where the Worker reads the owner's rows. */
let shard: D1Database;

/** The columns of `table` except `id`, so a row can be copied with some of them replaced. */
async function columnsOf(table: string): Promise<string[]> {
  const { results } = await shard.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>();
  return results.map((r) => r.name).filter((name) => name !== 'id');
}

/**
 * A statement copying the rows of `table` matching `where`, with `replace` giving SQL expressions (and
 * their parameters, in column order) for some columns. Each statement binds only a few parameters.
 */
function copyRows(columns: string[], table: string, where: string, whereBinds: unknown[], replace: Record<string, [string, ...unknown[]]>) {
  // Quoted: some columns have keyword names (`values`).
  const binds: unknown[] = [];
  const select = columns.map((column) => {
    const replacement = replace[column];
    if (!replacement) return `"${column}"`;
    binds.push(...replacement.slice(1));
    return replacement[0];
  });
  return shard
    .prepare(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} FROM ${table} WHERE ${where}`)
    .bind(...binds, ...whereBinds);
}

async function runInBatches(statements: D1PreparedStatement[]) {
  for (let i = 0; i < statements.length; i += 50) await shard.batch(statements.slice(i, i + 50));
}

/** `count` copies of a template made through the API (rows, version and documents), each its own template. */
async function copyTemplate(publicId: string, count: number): Promise<string[]> {
  const [templateColumns, versionColumns, documentColumns] = await Promise.all([
    columnsOf('templates'),
    columnsOf('template_versions'),
    columnsOf('template_documents'),
  ]);
  const source = (await shard.prepare('SELECT id FROM templates WHERE public_id = ?').bind(publicId).first<{ id: number }>())!.id;
  const copies = Array.from({ length: count }, (_, i) => `${publicId}c${i}`);
  const newId = '(SELECT id FROM templates WHERE public_id = ?)';
  await runInBatches(
    copies.flatMap((copy, i) => [
      copyRows(templateColumns, 'templates', 'id = ?', [source], {
        public_id: ['?', copy],
        slug: ["slug || '-' || ?", i],
        name: ["name || ' ' || ?", i],
      }),
      copyRows(versionColumns, 'template_versions', 'template_id = ?', [source], { template_id: [newId, copy] }),
      copyRows(documentColumns, 'template_documents', 'template_id = ? AND removed_at IS NULL', [source], {
        template_id: [newId, copy],
        r2_key: ["r2_key || '-' || ?", copy],
      }),
    ]),
  );
  return copies;
}

/** One submission made through the API from `templateId`, then copied once onto each of `templates`. */
async function copySubmissionOnto(templateId: string, templates: string[], status = 'pending'): Promise<number[]> {
  const made = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: templateId,
      send_email: false,
      submitters: [
        { role: 'Buyer', email: 'buyer@example.com' },
        { role: 'Seller', email: 'seller@example.com' },
      ],
    },
  });
  if (made.status !== 201) throw new Error(`submission fixture: ${made.status} ${made.text}`);
  const [submissionColumns, submitterColumns] = await Promise.all([columnsOf('submissions'), columnsOf('submitters')]);
  const templateOf = '(SELECT id FROM templates WHERE public_id = ?)';
  const submissionOf = '(SELECT id FROM submissions WHERE slug = ?)';
  const slugs = templates.map((t) => `${t}-submission`);
  const completedAt = status === 'completed' ? new Date(Date.now() - 60 * 60 * 1000).toISOString() : null;
  const positions = made.json.submitters.map((_: unknown, position: number) => position);
  await runInBatches([
    ...templates.map((template, i) =>
      copyRows(submissionColumns, 'submissions', 'id = ?', [made.json.id], {
        template_id: [templateOf, template],
        slug: ['?', slugs[i]],
        status: ['?', status],
        completed_at: ['?', completedAt],
        document_ids: [`(SELECT json_group_array(id) FROM template_documents WHERE template_id = ${templateOf})`, template],
      }),
    ),
    // Role by role, so the newest 100 submitters belong to 100 different submissions.
    ...positions.flatMap((position: number) =>
      slugs.map((slug) =>
        copyRows(submitterColumns, 'submitters', 'submission_id = ? AND position = ?', [made.json.id, position], {
          submission_id: [submissionOf, slug],
          uuid: ["uuid || '-' || ?", slug],
          slug: ["slug || '-' || ?", slug],
        }),
      ),
    ),
  ]);
  const { results } = await shard
    .prepare(`SELECT id FROM submissions WHERE slug IN (SELECT value FROM json_each(?)) ORDER BY id`)
    .bind(JSON.stringify(slugs))
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

let pendingIds: number[];

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  shard = await shardOf(owner.accountId);
  const template = await createTemplate(owner.token, ['Buyer', 'Seller']);
  pendingIds = await copySubmissionOnto(template.id, await copyTemplate(template.id, MANY));
});

describe('lists at their largest page', () => {
  it('lists 100 submissions made from 100 different templates', async () => {
    const res = await api('GET', '/api/submissions?limit=100', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(MANY);
    expect(new Set(res.json.data.map((s: { template_id: string }) => s.template_id)).size).toBe(MANY);
    expect(res.json.data.every((s: { submitters: unknown[] }) => s.submitters.length === 2)).toBe(true);
  });

  it('lists 100 submitters of 100 submissions made from 100 different templates', async () => {
    const res = await api('GET', '/api/submitters?limit=100', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(MANY);
    expect(new Set(res.json.data.map((s: { submission_id: number }) => s.submission_id))).toEqual(new Set(pendingIds));
  });

  it('lists 100 templates with their documents on one page', async () => {
    const res = await api('GET', '/api/templates?per_page=100', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(MANY);
    expect(res.json.data.every((t: { documents: unknown[] }) => t.documents.length === 1)).toBe(true);
  });
});

describe('bulk creates at their largest size', () => {
  it('creates a template with 10 documents, the most a template holds', async () => {
    const file = toBase64(await makePdf(1));
    const res = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: { name: 'Ten', documents: Array.from({ length: 10 }, (_, i) => ({ name: `part-${i}.pdf`, file })) },
    });
    expect(res.status).toBe(201);
    expect(res.json.documents).toHaveLength(10);
  });

  it('adds 9 documents to a one-document template in one update, reaching the most a template holds', async () => {
    const template = await createTemplate(owner.token);
    const file = toBase64(await makePdf(1));
    const res = await api('PUT', `/api/templates/${template.id}/documents`, {
      token: owner.token,
      body: { documents: Array.from({ length: 9 }, (_, i) => ({ name: `annex-${i}.pdf`, file })) },
    });
    expect(res.status).toBe(200);
    expect(res.json.documents).toHaveLength(10);
  });

  it('creates 100 submissions in one request, the most a request may create', async () => {
    const template = await createTemplate(owner.token, ['Buyer', 'Seller']);
    const submissions = Array.from({ length: 100 }, (_, i) => ({
      submitters: [
        { role: 'Buyer', email: `b${i}@example.com` },
        { role: 'Seller', email: `s${i}@example.com` },
      ],
    }));
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, send_email: false, submissions },
    });
    expect(res.status).toBe(201);
    expect(res.json).toHaveLength(100);
    expect(res.json.every((s: { submitters: unknown[] }) => s.submitters.length === 2)).toBe(true);
  });
});

describe('sweeps at their largest batch', () => {
  it('the sealing sweep re-queues 100 unsealed submissions in one run and records each sweep', async () => {
    const template = await createTemplate(owner.token, ['Buyer', 'Seller']);
    const ids = await copySubmissionOnto(template.id, await copyTemplate(template.id, MANY), 'completed');
    const queued = await sweepUnsealed(await scopeOf(owner.accountId), Date.now());
    expect(queued.sort((a, b) => a - b)).toEqual(ids);
    const { results } = await shard
      .prepare('SELECT DISTINCT seal_sweeps FROM submissions WHERE id IN (SELECT value FROM json_each(?))')
      .bind(JSON.stringify(ids))
      .all();
    expect(results).toEqual([{ seal_sweeps: 1 }]);
    expect(pendingIds).toHaveLength(MANY);
  });
});

describe('queries', () => {
  // drizzle's inArray binds one parameter per element, and so does an array interpolated into sql`… IN ${…}`;
  // a list from data must go through inList instead.
  const sources = import.meta.glob<string>(['../../src/**/*.ts', '../../durable-objects/**/*.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  });

  it('bind no list one parameter per element (inArray, notInArray, IN ${list}) anywhere in the Worker', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const offenders = Object.entries(sources)
      .filter(([, text]) => /\b(?:not)?[iI]nArray\s*\(|\bIN\s*\(?\$\{/.test(text))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });

  it('splits a multi-row insert whose later rows bind more than its first so that every statement fits', async () => {
    const webhook = await shard
      .prepare(
        "INSERT INTO webhooks (account_id, url, events, secret) VALUES (?, 'https://hooks.example.com/in', '[]', 'secret') RETURNING id",
      )
      .bind(owner.accountId)
      .first<{ id: number }>();
    const row = (i: number): NewWebhookDelivery => ({
      accountId: owner.accountId,
      webhookId: webhook!.id,
      event: 'form.completed',
      deliveryUuid: crypto.randomUUID(),
      attempt: 1,
      maxAttempts: 6,
      status: 'failed',
      url: 'https://hooks.example.com/in',
      requestBody: `{"n":${i}}`,
      test: true,
    });
    // Every optional column set: each of these rows binds about twice what the first one does.
    const full = (i: number): NewWebhookDelivery => ({
      ...row(i),
      requestHeaders: { 'content-type': 'application/json' },
      httpStatus: 500,
      responseBody: 'down',
      responseTimeMs: 12,
      errorMessage: 'HTTP 500',
      nextAttemptAt: null,
      leaseUntil: null,
      attemptedAt: '2026-11-25T12:00:00.000Z',
      deliveredAt: null,
      redeliveryOf: null,
      createdAt: '2026-11-25T12:00:00.000Z',
    });
    const rows = [row(0), ...Array.from({ length: 39 }, (_, i) => full(i + 1))];
    const db = createDb(shard);
    const [first, ...rest] = fanOutInserts(db, rows);
    const inserted = (await db.batch([first, ...rest])).flat();
    expect(inserted).toHaveLength(rows.length);
  });

  // A document row's page sizes are serialised to count its parameters: counted once per table and shape.
  it('counts the parameters of a row shape once per isolate, not by building a statement on every insert', () => {
    const db = createDb(shard);
    let built = 0;
    const build = (rows: (typeof templateDocuments.$inferInsert)[]) => {
      built += 1;
      return db.insert(templateDocuments).values(rows);
    };
    const row = (i: number) => ({
      accountId: 1,
      templateId: 1,
      uuid: `doc-${i}`,
      filename: 'a.pdf',
      contentType: 'application/pdf',
      byteSize: 1,
      sha256: 'ab',
      pageCount: 1,
      pageDimensions: [{ width: 612, height: 792, rotate: 0 }],
      r2Key: `k${i}`,
      position: i,
    });
    insertPacked(templateDocuments, [row(0)], build);
    built = 0;
    const statements = insertPacked(templateDocuments, [row(1), row(2)], build);
    expect(statements).toHaveLength(1);
    expect(built).toBe(1);
  });
});
