// POST /api/partner/v1/accounts/{id}/move: an account's rows move to another shard with their ids,
// writes racing the move commit before its fence or answer 409, and a move cut short resumes.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, partnerApi, type TestAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { receiverHook, runQueue } from '../webhook-fixtures';
import { controlDb, shardScope } from '../../src/db/shards';
import type { Bindings } from '../../src/env';
import { deleteMovedAccountRows } from '../../src/scheduled/moved-accounts';
import { tenantTables, unclassifiedAccountTables, CONTROL_TABLES, SHARD_SYSTEM_TABLES } from '../../src/db/tenant-tables';
import {
  beginMove,
  copyRows,
  deleteSourceRows,
  fenceSource,
  MOVED_ROWS_GRACE_MS,
  MoveLease,
  prepareTarget,
} from '../../src/services/account-move';
import { flipShard } from '../../src/db/queries/account-move';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { sealSubmission } from '../../src/services/sealing/seal-submission';

type Rows = Record<string, Record<string, unknown>[]>;

const shard = (n: number): D1Database => (n === 0 ? env.SHARD_0 : env.SHARD_1) as D1Database;
const ctx = () => ({ env, control: controlDb(env) });

/** Every row of the account in every tenant table of `db`, by table, in id order. */
async function accountRows(db: D1Database, accountId: number): Promise<Rows> {
  const rows: Rows = {};
  for (const table of tenantTables()) {
    rows[table.name] = (await db.prepare(`SELECT * FROM "${table.name}" WHERE account_id = ? ORDER BY id`).bind(accountId).all()).results;
  }
  return rows;
}

/** The cron step that deletes what moved accounts left on `n`, run once the grace period is over, until it finds none. */
async function afterGrace(n: number): Promise<number[]> {
  const deleted: number[] = [];
  for (;;) {
    const run = await deleteMovedAccountRows(shardScope(env as unknown as Bindings, n), Date.now() + MOVED_ROWS_GRACE_MS + 1000);
    if (run.length === 0) return deleted;
    deleted.push(...run);
  }
}

const total = (rows: Rows) => Object.values(rows).reduce((n, list) => n + list.length, 0);

async function shardOfAccount(accountId: number): Promise<number> {
  const row = await env.CONTROL_DB.prepare('SELECT shard FROM accounts WHERE id = ?').bind(accountId).first<{ shard: number }>();
  return row!.shard;
}

/** Waits (up to 5 s) for the messages queue's consumer to send the account's invitations, so the rows stand still. */
async function messagesSettled(accountId: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const unsent = await shard(0)
      .prepare('SELECT count(*) AS n FROM messages WHERE account_id = ? AND sent_at IS NULL')
      .bind(accountId)
      .first<number>('n');
    if (unsent === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Tenant = { account: TestAccount; templateId: number; submissionIds: number[]; slugs: string[] };

async function createSubmission(token: string, templateId: number, i: number) {
  return api('POST', '/api/submissions', {
    token,
    body: { template_id: templateId, submitters: [{ email: `mover${i}@example.com`, name: `Mover ${i}` }] },
  });
}

/**
 * An account on SHARD_0 with a template, submissions (one completed), messages, a webhook endpoint with
 * deliveries, events and audit events — rows in most tenant tables.
 */
async function tenantOnShard0(submissions = 3): Promise<Tenant> {
  const account = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = 0 WHERE id = ?').bind(account.accountId).run();
  await receiverHook(account.token);
  const template = await api('POST', '/api/templates/pdf', {
    token: account.token,
    body: {
      name: 'Moving',
      documents: [{ name: 'contract', file: toBase64(await makePdf(1)) }],
      submitters: [{ name: 'First Party' }],
      fields: [
        { name: 'Full name', type: 'text', role: 'First Party', required: true, areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] },
      ],
    },
  });
  expect(template.status).toBe(201);
  const submissionIds: number[] = [];
  const slugs: string[] = [];
  for (let i = 0; i < submissions; i++) {
    const res = await createSubmission(account.token, template.json.id, i);
    expect(res.status).toBe(201);
    submissionIds.push(res.json.id);
    slugs.push(res.json.submitters[0].slug);
  }
  if (submissions > 0) {
    const submitterId = (await api('GET', `/api/submissions/${submissionIds[0]}`, { token: account.token })).json.submitters[0].id;
    const completed = await api('PUT', `/api/submitters/${submitterId}`, {
      token: account.token,
      body: { completed: true, values: { 'Full name': 'Mover Zero' } },
    });
    expect(completed.status).toBe(200);
  }
  // The fan-out writes the webhook deliveries of the events so far.
  await runQueue([{ kind: 'drain' }]);
  await messagesSettled(account.accountId);
  return { account: account, templateId: template.json.id, submissionIds, slugs };
}

/** The signing page's own request when the form comes on screen (same origin, as the browser sends it). */
function openForm(slug: string) {
  return api('POST', `/s/${slug}/open`, { body: {}, headers: { Origin: 'https://api.test' } });
}

function move(accountId: number, to: number) {
  return partnerApi('POST', `/accounts/${accountId}/move`, { body: { shard: to } });
}

/** The lease a call holds on a move; steps run by hand below hold one as the endpoint's call would. */
const leaseOf = (accountId: number, target: number) => new MoveLease(controlDb(env), accountId, target);

/** What a crash looks like to the next call: the crashed call's lease lapsed without being renewed. */
async function leaseLapses(accountId: number) {
  await env.CONTROL_DB.prepare("UPDATE accounts SET move_lease_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(accountId).run();
}

describe('POST /api/partner/v1/accounts/{id}/move', () => {
  it('copies every row of the account to the target shard with the same ids and leaves none on the source', async () => {
    const { account } = await tenantOnShard0();
    const before = await accountRows(shard(0), account.accountId);
    for (const table of [
      'templates',
      'template_documents',
      'submissions',
      'submitters',
      'submission_events',
      'events',
      'webhooks',
      'webhook_deliveries',
      'messages',
      'audit_events',
    ]) {
      expect(before[table].length, table).toBeGreaterThan(0);
    }

    const res = await move(account.accountId, 1);

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: account.accountId, shard: 1, moving_to_shard: null });
    expect(await shardOfAccount(account.accountId)).toBe(1);
    const after = await accountRows(shard(1), account.accountId);
    // The move's own audit row is written after the move, on the new shard.
    expect(after.audit_events.pop()).toMatchObject({ action: 'partner.account.move', status: 200 });
    expect(after).toEqual(before);
    expect(await afterGrace(0)).toContain(account.accountId);
    expect(total(await accountRows(shard(0), account.accountId))).toBe(0);
  });

  it('keeps the moved rows on the old shard until the grace period is over, fenced against writes', async () => {
    const { account } = await tenantOnShard0(1);
    const before = await accountRows(shard(0), account.accountId);

    expect((await move(account.accountId, 1)).status).toBe(200);

    expect(await deleteMovedAccountRows(shardScope(env as unknown as Bindings, 0), Date.now())).toEqual([]);
    expect(await accountRows(shard(0), account.accountId)).toEqual(before);
    await expect(
      shard(0).prepare("UPDATE submissions SET metadata = '{}' WHERE account_id = ?").bind(account.accountId).run(),
    ).rejects.toThrow('account_moving');
  });

  it('refuses a late write to the old shard after its rows are deleted', async () => {
    const { account } = await tenantOnShard0(1);
    expect((await move(account.accountId, 1)).status).toBe(200);
    await afterGrace(0);

    const late = shard(0)
      .prepare("INSERT INTO events (account_id, event, data) VALUES (?, 'submission.created', '{}')")
      .bind(account.accountId)
      .run();

    await expect(late).rejects.toThrow('account_moving');
  });

  it('keeps answering reads by id, lists with cursors and the signing page with the same ids and slugs after the move', async () => {
    const { account, submissionIds, slugs } = await tenantOnShard0();
    const list = async () => {
      const first = await api('GET', '/api/submissions?limit=2', { token: account.token });
      const second = await api('GET', `/api/submissions?limit=2&after=${first.json.pagination.next}`, { token: account.token });
      return [first.json.data, second.json.data].flat().map((s: { id: number }) => s.id);
    };
    const listed = await list();

    expect((await move(account.accountId, 1)).status).toBe(200);

    const byId = await api('GET', `/api/submissions/${submissionIds[1]}`, { token: account.token });
    expect(byId.status).toBe(200);
    expect(byId.json.id).toBe(submissionIds[1]);
    expect(await list()).toEqual(listed);
    expect(listed).toEqual([...submissionIds].reverse());
    const page = await api('GET', `/s/${slugs[2]}`);
    expect(page.status).toBe(200);
    expect((await openForm(slugs[2])).status).toBe(200);
  });

  it('serves a sealed document from the same R2 object after the move', async () => {
    const { account, submissionIds } = await tenantOnShard0(1);
    expect(await sealSubmission(env as unknown as Bindings, { db: shardScope(env, 0).db, control: controlDb(env) }, submissionIds[0])).toBe(
      'sealed',
    );
    const download = async () => {
      const list = await api('GET', `/api/submissions/${submissionIds[0]}/documents`, { token: account.token });
      const res = await SELF.fetch(list.json.documents[0].download_url, { headers: { 'X-Auth-Token': account.token } });
      return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const before = await download();
    const objects = (await env.FILES.list()).objects.map((o) => o.key).sort();

    expect((await move(account.accountId, 1)).status).toBe(200);

    const after = await download();
    expect(after.status).toBe(200);
    expect(after.bytes).toEqual(before.bytes);
    expect((await env.FILES.list()).objects.map((o) => o.key).sort()).toEqual(objects);
  });

  it('gives rows created after the move ids above every moved one', async () => {
    const { account, templateId, submissionIds } = await tenantOnShard0(1);
    expect((await move(account.accountId, 1)).status).toBe(200);

    const created = await createSubmission(account.token, templateId, 99);

    expect(created.status).toBe(201);
    expect(created.json.id).toBeGreaterThan(Math.max(...submissionIds));
    expect(await shard(1).prepare('SELECT count(*) AS n FROM submissions WHERE id = ?').bind(created.json.id).first('n')).toBe(1);
  });

  it('moves an account back to the shard it came from', async () => {
    const { account, templateId } = await tenantOnShard0(1);
    expect((await move(account.accountId, 1)).status).toBe(200);
    expect((await createSubmission(account.token, templateId, 7)).status).toBe(201);
    const onShard1 = await accountRows(shard(1), account.accountId);

    const back = await move(account.accountId, 0);

    expect(back.status).toBe(200);
    expect(back.json.shard).toBe(0);
    const onShard0 = await accountRows(shard(0), account.accountId);
    expect(onShard0.audit_events.pop()).toMatchObject({ action: 'partner.account.move' });
    expect(onShard0).toEqual(onShard1);
    await afterGrace(1);
    expect(total(await accountRows(shard(1), account.accountId))).toBe(0);
    expect((await createSubmission(account.token, templateId, 8)).status).toBe(201);
  });

  it('deletes nothing of a copy back to the old shard when a late cleanup of that shard runs during it', async () => {
    const { account } = await tenantOnShard0(1);
    expect((await move(account.accountId, 1)).status).toBe(200);
    const onShard1 = await accountRows(shard(1), account.accountId);
    const lease = leaseOf(account.accountId, 0);
    await beginMove(ctx(), account.accountId, 0, lease);
    await fenceSource(ctx(), account.accountId, 1);
    await prepareTarget(ctx(), account.accountId, 0);
    await copyRows(ctx(), account.accountId, 1, 0, lease);

    // The cron picked the account's old rows on shard 0 before the move back began.
    await deleteSourceRows(shardScope(env, 0).db, account.accountId);

    expect(await accountRows(shard(0), account.accountId)).toEqual(onShard1);
    expect(await shard(0).prepare('SELECT count(*) AS n FROM account_fences WHERE account_id = ?').bind(account.accountId).first('n')).toBe(
      0,
    );
    await leaseLapses(account.accountId);
    expect((await move(account.accountId, 0)).status).toBe(200);
  });

  it('loses and duplicates no write racing the move: each commits before the fence and moves, or answers 409 with Retry-After', async () => {
    const { account, templateId, submissionIds } = await tenantOnShard0(1);
    const writes = Array.from({ length: 24 }, (_, i) => createSubmission(account.token, templateId, 100 + i));
    const reads = Array.from({ length: 8 }, () => api('GET', `/api/submissions/${submissionIds[0]}`, { token: account.token }));

    const [moved, ...answers] = await Promise.all([move(account.accountId, 1), ...writes]);
    const readAnswers = await Promise.all(reads);

    expect(moved.status).toBe(200);
    const created = answers.filter((a) => a.status === 201).map((a) => a.json.id as number);
    const refused = answers.filter((a) => a.status === 409);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    for (const r of refused) {
      expect(r.headers.get('Retry-After')).toBe('5');
      expect(r.json.error).toBe('This account is being moved to another database; retry shortly.');
    }
    const { results } = await shard(1)
      .prepare('SELECT id FROM submissions WHERE account_id = ? ORDER BY id')
      .bind(account.accountId)
      .all<{ id: number }>();
    expect(results.map((r) => r.id)).toEqual([...submissionIds, ...created].sort((a, b) => a - b));
    expect(readAnswers.map((r) => r.status)).toEqual(readAnswers.map(() => 200));
  });

  it('lets one of two calls moving the same account at once do the move; the other answers 409 or finds it done', async () => {
    const { account } = await tenantOnShard0(1);
    const before = await accountRows(shard(0), account.accountId);

    const answers = await Promise.all([move(account.accountId, 1), move(account.accountId, 1)]);

    const statuses = answers.map((a) => a.status).sort();
    expect([
      [200, 409],
      [200, 422],
    ]).toContainEqual(statuses);
    const after = await accountRows(shard(1), account.accountId);
    after.audit_events.splice(before.audit_events.length);
    expect(after).toEqual(before);
    expect(
      await env.CONTROL_DB.prepare('SELECT shard, moving_to_shard, move_lease FROM accounts WHERE id = ?').bind(account.accountId).first(),
    ).toEqual({ shard: 1, moving_to_shard: null, move_lease: null });
  });

  it('answers writes with 409 and Retry-After while a move is under way, and reads with 200', async () => {
    const { account, templateId, submissionIds, slugs } = await tenantOnShard0(1);
    await beginMove(ctx(), account.accountId, 1, leaseOf(account.accountId, 1));

    const write = await createSubmission(account.token, templateId, 50);
    const signing = await openForm(slugs[0]);
    const read = await api('GET', `/api/submissions/${submissionIds[0]}`, { token: account.token });

    expect(write.status).toBe(409);
    expect(write.headers.get('Retry-After')).toBe('5');
    expect(signing.status).toBe(409);
    expect(signing.headers.get('Retry-After')).toBe('5');
    expect(read.status).toBe(200);
  });

  it('answers 409 with Retry-After for a write that reaches a fenced shard', async () => {
    const { account, templateId } = await tenantOnShard0(1);
    await fenceSource(ctx(), account.accountId, 0);

    const write = await createSubmission(account.token, templateId, 51);

    expect(write.status).toBe(409);
    expect(write.headers.get('Retry-After')).toBe('5');
    await expect(
      shard(0).prepare("UPDATE submissions SET metadata = '{}' WHERE account_id = ?").bind(account.accountId).run(),
    ).rejects.toThrow('account_moving');
  });

  it('frees the Idempotency-Key of a write refused by the fence, so its retry runs', async () => {
    const { account, templateId } = await tenantOnShard0(1);
    await fenceSource(ctx(), account.accountId, 0);
    const body = { template_id: templateId, submitters: [{ email: 'retry@example.com' }] };
    const headers = { 'Idempotency-Key': `move-retry-${account.accountId}` };
    expect((await api('POST', '/api/submissions', { token: account.token, body, headers })).status).toBe(409);
    await shard(0).prepare('DELETE FROM account_fences WHERE account_id = ?').bind(account.accountId).run();

    const retry = await api('POST', '/api/submissions', { token: account.token, body, headers });

    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotency-Replayed')).toBeNull();
  });

  it('resumes a move cut short half way through the copy when called again with the same shard', async () => {
    const { account } = await tenantOnShard0();
    const before = await accountRows(shard(0), account.accountId);
    const lease = leaseOf(account.accountId, 1);
    await beginMove(ctx(), account.accountId, 1, lease);
    await fenceSource(ctx(), account.accountId, 0);
    await prepareTarget(ctx(), account.accountId, 1);
    await copyRows(ctx(), account.accountId, 0, 1, lease, tenantTables().slice(0, 4));
    // While the cut-short call's lease holds, another call may not take the move over.
    expect((await move(account.accountId, 1)).status).toBe(409);
    await leaseLapses(account.accountId);

    const res = await move(account.accountId, 1);

    expect(res.status).toBe(200);
    const after = await accountRows(shard(1), account.accountId);
    after.audit_events.pop();
    expect(after).toEqual(before);
    await afterGrace(0);
    expect(total(await accountRows(shard(0), account.accountId))).toBe(0);
  });

  it('finishes the cleanup of a move cut short after the flip when called with the new shard, then refuses a second call with 422', async () => {
    const { account } = await tenantOnShard0(1);
    const lease = leaseOf(account.accountId, 1);
    await beginMove(ctx(), account.accountId, 1, lease);
    await fenceSource(ctx(), account.accountId, 0);
    await prepareTarget(ctx(), account.accountId, 1);
    await copyRows(ctx(), account.accountId, 0, 1, lease);
    await flipShard(controlDb(env), account.accountId, 1, lease.token);

    const res = await move(account.accountId, 1);

    expect(res.status).toBe(200);
    expect(await afterGrace(0)).toContain(account.accountId);
    expect(total(await accountRows(shard(0), account.accountId))).toBe(0);
    expect((await move(account.accountId, 1)).status).toBe(422);
  });

  it('answers 404 for an account that does not exist', async () => {
    const res = await move(999_999, 1);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Account not found.');
  });

  it('answers 422 for the shard the account already lives on', async () => {
    const { account } = await tenantOnShard0(0);
    const res = await move(account.accountId, 0);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The account already lives on shard 0.');
  });

  it('answers 422 for a shard that is not bound', async () => {
    const { account } = await tenantOnShard0(0);
    const res = await move(account.accountId, 7);
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^Shard 7 is not bound/);
  });

  it('answers 400 for a shard that is not a number', async () => {
    const { account } = await tenantOnShard0(0);
    const res = await partnerApi('POST', `/accounts/${account.accountId}/move`, { body: { shard: 'one' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual(expect.anything());
  });

  it('answers 422 for a negative shard', async () => {
    const { account } = await tenantOnShard0(0);
    const res = await partnerApi('POST', `/accounts/${account.accountId}/move`, { body: { shard: -1 } });
    expect(res.status).toBe(422);
  });

  it('is declared in the partner OpenAPI document with every answer it gives', async () => {
    const doc = (await api('GET', '/api/partner/v1/openapi.json')).json;
    const operation = doc.paths['/accounts/{id}/move'].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '409', '422']));
    expect(JSON.stringify(doc.components.schemas.PartnerAccount)).toContain('"moving_to_shard"');
  });

  it('answers 409 while a move of the account to another shard is running', async () => {
    const { account } = await tenantOnShard0(0);
    await env.CONTROL_DB.prepare('UPDATE accounts SET moving_to_shard = 1 WHERE id = ?').bind(account.accountId).run();
    const res = await move(account.accountId, 0);
    expect(res.status).toBe(409);
    expect(res.json.error).toMatch(/shard 1 is running/);
  });

  it('shows the shard of every account in the partner API', async () => {
    const { account } = await tenantOnShard0(0);
    const res = await partnerApi('GET', `/accounts/${account.accountId}`);
    expect(res.json).toMatchObject({ shard: 0, moving_to_shard: null });
  });
});

describe('tenant tables', () => {
  it('classifies every schema table with an account_id column as moved, control or shard bookkeeping', () => {
    expect(unclassifiedAccountTables()).toEqual([]);
  });

  it('moves or declares every table of a shard database that has an account_id column, and fences each moved one with three triggers', async () => {
    const known = new Set([...CONTROL_TABLES, ...SHARD_SYSTEM_TABLES].map((t) => getTableConfig(t).name));
    const moved = new Set(tenantTables().map((t) => t.name));
    const { results: tables } = await shard(0)
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all<{ name: string }>();
    const { results: triggers } = await shard(0)
      .prepare("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%account_moving%'")
      .all<{ tbl_name: string }>();
    for (const { name } of tables) {
      const { results: columns } = await shard(0).prepare(`SELECT name FROM pragma_table_info('${name}')`).all<{ name: string }>();
      if (!columns.some((c) => c.name === 'account_id') || known.has(name)) continue;
      expect(moved.has(name), `${name} is neither moved nor declared control`).toBe(true);
      expect(
        triggers.filter((t) => t.tbl_name === name),
        `${name} fence triggers`,
      ).toHaveLength(3);
    }
    expect([...moved].every((name) => tables.some((t) => t.name === name))).toBe(true);
  });
});
