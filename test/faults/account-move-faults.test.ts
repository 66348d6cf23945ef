// Issue 28 › 10, faults lose nothing, for an account move: every D1 call of POST
// /api/partner/v1/accounts/{id}/move and of the cron step that deletes the rows left on the source fails
// once, before or after its work. The move ends completed, or resumable by calling it again once the
// crashed call's lease lapsed; either way the target ends with exactly the rows the source had, the
// source with none, and the pointer on the target. (R2 objects do not move: their keys name no shard.)
// The matrix it prints is in docs/faults.md.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope } from '../../src/db/shards';
import { tenantTables } from '../../src/db/tenant-tables';
import type { Bindings } from '../../src/env';
import { deleteMovedAccountRows } from '../../src/scheduled/moved-accounts';
import { MOVED_ROWS_GRACE_MS } from '../../src/services/account-move';
import { api, createAccount, partnerKeys, clientAddress } from '../helpers';
import { completeValues, createTemplate } from '../submission-fixtures';
import { drainFor, receiverHook } from '../webhook-fixtures';
import { faultEachCall, withFaults, type Call, type FaultKind, type FaultMode, type FaultPlan } from '../fault-injection';

type Rows = Record<string, Record<string, unknown>[]>;
type Outcome = { fired: Call | null; answers: number[]; cleanups: number; problems: string[] };

const shard = (n: number): D1Database => (n === 0 ? env.SHARD_0 : env.SHARD_1) as D1Database;
/** The trail gets a row per call of the move itself, on whichever shard the account then lives. */
const TRAIL = 'audit_events';

async function accountRows(db: D1Database, accountId: number): Promise<Rows> {
  const rows: Rows = {};
  for (const table of tenantTables()) {
    rows[table.name] = (await db.prepare(`SELECT * FROM "${table.name}" WHERE account_id = ? ORDER BY id`).bind(accountId).all()).results;
  }
  return rows;
}

/** An account on SHARD_0 with a template, submissions (one completed), an endpoint and its deliveries. */
async function tenantOnShard0(): Promise<number> {
  const account = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = 0 WHERE id = ?').bind(account.accountId).run();
  await receiverHook(account.token);
  const template = await createTemplate(account.token, ['Signer']);
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await api('POST', '/api/submissions', {
      token: account.token,
      body: {
        template_id: template.id,
        send_email: false,
        submitters: [{ role: 'Signer', email: `mover${i}@example.com`, send_email: false }],
      },
    });
    expect(res.status).toBe(201);
    ids.push(res.json.submitters[0].id);
  }
  expect(
    (await api('PUT', `/api/submitters/${ids[0]}`, { token: account.token, body: { completed: true, values: completeValues('Signer') } }))
      .status,
  ).toBe(200);
  await drainFor(account.accountId);
  return account.accountId;
}

async function move(faulty: Bindings, accountId: number, to: number): Promise<number> {
  const ctx = createExecutionContext();
  const request = new Request(`https://api.test/api/partner/v1/accounts/${accountId}/move`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${partnerKeys()[0]}`, 'Content-Type': 'application/json', 'CF-Connecting-IP': clientAddress() },
    body: JSON.stringify({ shard: to }),
  });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, faulty, ctx);
  await res.text();
  await waitOnExecutionContext(ctx);
  return res.status;
}

/** What the next call finds after a crash: the crashed call's lease has lapsed (MOVE_LEASE_MS later). */
async function leaseLapses(accountId: number) {
  await env.CONTROL_DB.prepare("UPDATE accounts SET move_lease_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(accountId).run();
}

const withoutTrail = (rows: Rows): Rows => Object.fromEntries(Object.entries(rows).filter(([name]) => name !== TRAIL));

async function problemsOf(accountId: number, before: Rows): Promise<string[]> {
  const problems: string[] = [];
  const control = await env.CONTROL_DB.prepare('SELECT shard, moving_to_shard, move_lease FROM accounts WHERE id = ?')
    .bind(accountId)
    .first<{ shard: number; moving_to_shard: number | null; move_lease: string | null }>();
  if (control?.shard !== 1 || control.moving_to_shard !== null || control.move_lease !== null)
    problems.push(`control row ${JSON.stringify(control)}`);
  const target = await accountRows(shard(1), accountId);
  const expected = withoutTrail(before);
  for (const [table, rows] of Object.entries(withoutTrail(target))) {
    if (JSON.stringify(rows) !== JSON.stringify(expected[table]))
      problems.push(`${table}: ${expected[table].length} rows before, ${rows.length} on the target, or different`);
  }
  const trailIds = target[TRAIL].map((r) => r.id);
  if (new Set(trailIds).size !== trailIds.length) problems.push('trail rows doubled');
  if (before[TRAIL].some((r) => !trailIds.includes(r.id))) problems.push('trail rows lost');
  const left = Object.values(await accountRows(shard(0), accountId)).reduce((n, rows) => n + rows.length, 0);
  if (left) problems.push(`${left} rows left on the source`);
  const fences = await Promise.all(
    [0, 1].map((n) => shard(n).prepare('SELECT reason FROM account_fences WHERE account_id = ?').bind(accountId).first<string>('reason')),
  );
  if (fences[0] !== 'deleted' || fences[1] !== null) problems.push(`fences ${fences.join(' / ')}`);
  return problems;
}

async function run(plan: FaultPlan): Promise<{ outcome: Outcome; calls: Call[] }> {
  const accountId = await tenantOnShard0();
  const before = await accountRows(shard(0), accountId);
  const { faults, env: faulty } = withFaults(plan);
  const outcome: Outcome = { fired: null, answers: [], cleanups: 0, problems: [] };
  faults.phase = 'move request';
  for (let call = 0; call < 3; call++) {
    const status = await move(faulty, accountId, 1);
    outcome.answers.push(status);
    if (status < 500 && status !== 409) break;
    await leaseLapses(accountId);
  }
  // The cron step after the grace period, run until the source holds nothing (a failed run is redone next minute).
  faults.phase = 'cron: rows of moved accounts';
  const later = Date.now() + MOVED_ROWS_GRACE_MS + 1000;
  for (let round = 0; round < 3; round++) {
    const fence = await shard(0).prepare('SELECT reason FROM account_fences WHERE account_id = ?').bind(accountId).first<string>('reason');
    if (fence === 'deleted') break;
    outcome.cleanups += 1;
    await deleteMovedAccountRows(shardScope(faulty, 0), later).catch(() => undefined);
  }
  outcome.fired = faults.fired;
  outcome.problems = await problemsOf(accountId, before);
  return { outcome, calls: faults.calls };
}

let clean: Call[] = [];
const matrix: { call: Call; mode: FaultMode; outcome: Outcome }[] = [];
const KINDS: readonly FaultKind[] = ['d1.batch', 'd1.write'];

describe('faults during an account move', () => {
  it('without a fault: one call moves every row, one cleanup run empties the source', async () => {
    const { outcome, calls } = await run(null);
    clean = calls;
    expect(outcome.problems).toEqual([]);
    expect(outcome.answers).toEqual([200]);
    expect(outcome.cleanups).toBe(1);
  }, 60_000);

  for (const kind of KINDS) {
    for (const mode of ['before', 'after'] as const) {
      it(`${kind} failing ${mode} its work, each call once: the move completes or resumes, no row lost or doubled`, async () => {
        expect(await faultEachCall(clean, kind, mode, run, matrix)).toEqual([]);
      }, 600_000);
    }
  }
});

afterAll(() => {
  if (matrix.length === 0) return;
  const describeOutcome = (o: Outcome) =>
    `${o.problems.length ? `✗ ${o.problems.join('; ')}` : '✓'} move ${o.answers.join('→')} · cleanup runs ${o.cleanups}`;
  const rows = new Map<string, { call: Call; before?: string; after?: string }>();
  for (const { call, mode, outcome } of [...matrix].sort(
    (a, b) => KINDS.indexOf(a.call.kind) - KINDS.indexOf(b.call.kind) || a.call.nth - b.call.nth,
  )) {
    const key = `${call.kind} #${call.nth}`;
    rows.set(key, { ...rows.get(key), call, [mode]: describeOutcome(outcome) });
  }
  const lines = ['| call | where | what | fails before it | fails after it (done, error returned) |', '|---|---|---|---|---|'];
  for (const { call, before, after } of rows.values())
    lines.push(`| ${call.kind} #${call.nth} | ${call.phase} | ${call.what} | ${before ?? '–'} | ${after ?? '–'} |`);
  console.log(`\n<!-- fault matrix: account move -->\n${lines.join('\n')}\n`);
});
