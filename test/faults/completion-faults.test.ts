// Issue 28 › 10, faults lose nothing: every faultable call on the way from a submitter's completion to
// the endpoint's 2xx (completion → sealing → outbox → delivery) fails once, before or after it did its
// work, and once the queues have redelivered what they would and the cron has swept, the submission is
// completed once, sealed once, and every event reached the endpoint under one delivery id.
// The matrix it prints is docs/faults.md.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { consumeByShard } from '../../src/queues/shard-batches';
import { handleWebhookBatch } from '../../src/queues/webhooks';
import type { Bindings } from '../../src/env';
import { api, createAccount, shardOf } from '../helpers';
import { completeValues, createTemplate, type TemplateFixture } from '../submission-fixtures';
import { drainFor, receiverHook } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';
import { FAULT_KINDS, messageBatch, withFaults, type Call, type FaultKind, type FaultMode, type FaultPlan, type Faults } from '../fault-injection';

type Flow = { accountId: number; token: string; submissionId: number; submitterId: number; receiver: string; shard: D1Database };

type Outcome = { fired: Call | null; answers: number[]; sealingRuns: number; cronRuns: number; posts: number; ids: number; problems: string[] };

const SEALING = 'signing-service-sealing';
const WEBHOOKS = 'signing-service-webhooks';
/** One cron round moves the clock past the sealing sweep's grace (10 min) and the first webhook retry (1 min). */
const CRON_STEP_MS = 11 * 60_000;
const MAX_ROUNDS = 8;

let template: TemplateFixture;
let owner: { accountId: number; token: string };

beforeAll(async () => {
  owner = await createAccount({ name: 'Faults Co' });
  template = await createTemplate(owner.token, ['Signer']);
});

/** A pending submission of its own account with an endpoint on the real receiver; earlier events already fanned out. */
async function prepare(): Promise<Flow> {
  const account = await createAccount({ name: 'Faulted' });
  const own = await createTemplate(account.token, ['Signer']);
  const created = await api('POST', '/api/submissions', { token: account.token, body: { template_id: own.id, submitters: [{ role: 'Signer', email: `f${crypto.randomUUID().slice(0, 8)}@example.com` }] } });
  expect(created.status).toBe(201);
  await drainFor(account.accountId);
  const { receiver } = await receiverHook(account.token);
  return { accountId: account.accountId, token: account.token, submissionId: created.json.id, submitterId: created.json.submitters[0].id, receiver, shard: await shardOf(account.accountId) };
}

/** The completion as a client sends it, retried on a 5xx as a client would. */
async function complete(flow: Flow, faulty: Bindings, faults: Faults): Promise<number[]> {
  faults.phase = 'completion request';
  const answers: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const ctx = createExecutionContext();
    const request = new Request(`https://api.test/api/submitters/${flow.submitterId}`, {
      method: 'PUT',
      headers: { 'X-Auth-Token': flow.token, 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.51.100.7' },
      body: JSON.stringify({ completed: true, values: completeValues('Signer') }),
    });
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, faulty, ctx);
    await res.text();
    await waitOnExecutionContext(ctx);
    answers.push(res.status);
    if (res.status < 500) break;
  }
  return answers;
}

/** Delivers every due message to its consumer, as the Queues runtime would, until none is due. */
async function runMailbox(faulty: Bindings, faults: Faults, outcome: Outcome): Promise<void> {
  for (let pass = 0; pass < 40; pass++) {
    const due = faults.mailbox.filter((e) => e.dueAt <= faults.now);
    if (due.length === 0) return;
    faults.mailbox.splice(0, faults.mailbox.length, ...faults.mailbox.filter((e) => e.dueAt > faults.now));
    for (const queue of [SEALING, WEBHOOKS]) {
      const entries = due.filter((e) => e.queue === queue);
      if (entries.length === 0) continue;
      const { batch, redeliveries } = messageBatch(queue, entries);
      let threw = false;
      try {
        if (queue === SEALING) {
          faults.phase = 'sealing consumer';
          outcome.sealingRuns += 1;
          const ctx = createExecutionContext();
          await worker.queue(batch, faulty, ctx);
          await waitOnExecutionContext(ctx);
        } else {
          // The webhook consumer on the harness's clock, so retries come due without waiting.
          faults.phase = 'webhook consumer';
          await consumeByShard(batch, faulty, (part, scope) => handleWebhookBatch(part, scope, { now: faults.now }));
        }
      } catch {
        threw = true;
      }
      for (const again of redeliveries(threw)) faults.mailbox.push({ queue, body: again.body, attempts: again.attempts, dueAt: faults.now + again.delaySeconds * 1000 });
    }
  }
  throw new Error('the queues did not settle');
}

async function runCron(faulty: Bindings, faults: Faults): Promise<void> {
  faults.phase = 'cron';
  const ctx = createExecutionContext();
  // A step that fails throws after the others ran (src/scheduled/index.ts); the next minute's run retries it.
  await worker.scheduled(createScheduledController({ scheduledTime: faults.now, cron: '* * * * *' }), faulty, ctx).catch(() => undefined);
  await waitOnExecutionContext(ctx);
}

async function settled(flow: Flow): Promise<boolean> {
  const submission = await flow.shard.prepare('SELECT status, sealed_at FROM submissions WHERE id = ?').bind(flow.submissionId).first<{ status: string; sealed_at: string | null }>();
  const undispatched = await flow.shard.prepare('SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL').bind(flow.accountId).first<number>('n');
  const pending = await flow.shard.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND status = 'pending'").bind(flow.accountId).first<number>('n');
  return submission?.status === 'completed' && submission.sealed_at !== null && undispatched === 0 && pending === 0;
}

const count = async (flow: Flow, sql: string, ...binds: unknown[]) => (await flow.shard.prepare(sql).bind(...binds).first<number>('n')) ?? 0;

/** What must hold however the run went; each broken promise is a sentence. */
async function problemsOf(flow: Flow): Promise<string[]> {
  const problems: string[] = [];
  const submitter = await flow.shard.prepare('SELECT status FROM submitters WHERE id = ?').bind(flow.submitterId).first<{ status: string }>();
  if (submitter?.status !== 'completed') problems.push(`submitter is ${submitter?.status}`);
  const completions = await count(flow, "SELECT count(*) AS n FROM submission_events WHERE submitter_id = ? AND action = 'completed'", flow.submitterId);
  if (completions !== 1) problems.push(`submitter completed ${completions}×`);
  const usage = await count(flow, 'SELECT count(*) AS n FROM signature_usage WHERE submitter_id = ?', flow.submitterId);
  if (usage !== 1) problems.push(`signature billed ${usage}×`);
  const finished = await count(flow, "SELECT count(*) AS n FROM submission_events WHERE submission_id = ? AND action = 'submission_completed'", flow.submissionId);
  if (finished !== 1) problems.push(`submission completed ${finished}×`);

  const sealed = await flow.shard.prepare('SELECT sealed_at FROM submissions WHERE id = ?').bind(flow.submissionId).first<string | null>('sealed_at');
  if (!sealed) problems.push('not sealed');
  const documents = (await flow.shard.prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?').bind(flow.submissionId).all<{ r2_key: string }>()).results;
  if (documents.length !== 1) problems.push(`${documents.length} sealed documents recorded`);
  const stored = (await env.FILES.list({ prefix: `sealed/${flow.accountId}/${flow.submissionId}/` })).objects.map((o) => o.key);
  for (const d of documents) if (!stored.includes(d.r2_key)) problems.push('the recorded sealed file is missing from R2');
  const orphans = stored.filter((key) => !documents.some((d) => d.r2_key === key));
  if (orphans.length) problems.push(`${orphans.length} sealed file(s) in R2 no row records`);

  const events = (await flow.shard.prepare('SELECT id, event, data FROM events WHERE account_id = ? ORDER BY id').bind(flow.accountId).all<{ id: number; event: string; data: string }>()).results;
  const mine = events.filter((e) => JSON.parse(e.data).submission?.id === flow.submissionId || JSON.parse(e.data).submission_id === flow.submissionId);
  for (const name of ['form.completed', 'submitter.completed', 'submission.completed', 'document.generated']) {
    const n = mine.filter((e) => e.event === name).length;
    if (n !== 1) problems.push(`${name} written ${n}×`);
  }
  const received = await receivedBy(flow.receiver);
  if (received.some((r) => !r.signatureValid)) problems.push('a delivery with a bad signature');
  const idsByBody = new Map<string, Set<string>>();
  for (const r of received) idsByBody.set(r.body, (idsByBody.get(r.body) ?? new Set()).add(r.headers['x-webhook-delivery-id']));
  for (const [body, ids] of idsByBody) if (ids.size !== 1) problems.push(`${JSON.parse(body).event} delivered under ${ids.size} delivery ids`);
  const deliveredEvents = [...idsByBody.keys()].map((b) => JSON.parse(b).event as string).sort();
  const wanted = ['document.generated', 'form.completed', 'submission.completed', 'submitter.completed'];
  if (deliveredEvents.join() !== wanted.join()) problems.push(`delivered ${deliveredEvents.join(', ') || 'nothing'}`);
  const unfinished = await count(flow, "SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND status = 'pending'", flow.accountId);
  if (unfinished) problems.push(`${unfinished} deliveries still pending`);
  return problems;
}

/** One run: the completion with `plan`'s fault in it, then queues and crons until nothing is left to do. */
async function run(plan: FaultPlan): Promise<{ outcome: Outcome; calls: Call[] }> {
  const flow = await prepare();
  const { faults, env: faulty } = withFaults(plan);
  const outcome: Outcome = { fired: null, answers: [], sealingRuns: 0, cronRuns: 0, posts: 0, ids: 0, problems: [] };
  faults.interceptFetch();
  try {
    outcome.answers = await complete(flow, faulty, faults);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      await runMailbox(faulty, faults, outcome);
      if (await settled(flow)) break;
      faults.now += CRON_STEP_MS;
      outcome.cronRuns += 1;
      await runCron(faulty, faults);
    }
    // Then an hour of quiet, unfaulted: whatever is still queued or swept must change nothing more.
    const calls = [...faults.calls];
    faults.armed = false;
    for (let i = 0; i < 2; i++) {
      faults.now += 30 * 60_000;
      await runCron(faulty, faults);
      await runMailbox(faulty, faults, { ...outcome });
    }
    outcome.fired = faults.fired;
    const received = await receivedBy(flow.receiver);
    outcome.posts = received.length;
    outcome.ids = new Set(received.map((r) => r.headers['x-webhook-delivery-id'])).size;
    outcome.problems = await problemsOf(flow);
    return { outcome, calls };
  } finally {
    faults.restore();
  }
}

let clean: Call[] = [];
const matrix: { call: Call; mode: FaultMode; outcome: Outcome }[] = [];

function describeOutcome(o: Outcome): string {
  const parts = [`API ${o.answers.join('→')}`, `sealing runs ${o.sealingRuns}`, `cron rounds ${o.cronRuns}`, `${o.ids} ids / ${o.posts} posts`];
  return `${o.problems.length ? `✗ ${o.problems.join('; ')}` : '✓'} ${parts.join(' · ')}`;
}

describe('faults on the way from completion to delivery', () => {
  it('without a fault: completed once, sealed once, four events delivered once each', async () => {
    const { outcome, calls } = await run(null);
    clean = calls;
    expect(outcome.problems).toEqual([]);
    expect(outcome.answers).toEqual([200]);
    expect(outcome.cronRuns).toBe(0);
    expect(outcome.ids).toBe(4);
    for (const kind of FAULT_KINDS) expect(calls.some((c) => c.kind === kind), kind).toBe(true);
  }, 60_000);

  for (const kind of FAULT_KINDS) {
    for (const mode of ['before', 'after'] as const) {
      it(`${kind} failing ${mode} its work, each call once: nothing lost or doubled`, async () => {
        const failures: string[] = [];
        for (const call of clean.filter((c) => c.kind === kind)) {
          const { outcome } = await run({ kind, nth: call.nth, mode });
          matrix.push({ call, mode, outcome });
          if (!outcome.fired) failures.push(`#${call.nth} (${call.phase}: ${call.what}) was not reached`);
          else if (outcome.problems.length) failures.push(`#${call.nth} (${call.phase}: ${call.what}): ${outcome.problems.join('; ')}`);
        }
        expect(failures).toEqual([]);
      }, 300_000);
    }
  }
});

afterAll(() => {
  if (matrix.length === 0) return;
  const rows = new Map<string, Partial<Record<FaultMode, string>>>();
  const order = (kind: FaultKind) => FAULT_KINDS.indexOf(kind);
  for (const { call, mode, outcome } of [...matrix].sort((a, b) => order(a.call.kind) - order(b.call.kind) || a.call.nth - b.call.nth)) {
    const key = `| ${call.kind} #${call.nth} | ${call.phase} | ${call.what} `;
    rows.set(key, { ...rows.get(key), [mode]: describeOutcome(outcome) });
  }
  const lines = ['| call | where | what | fails before it | fails after it (done, error returned) |', '|---|---|---|---|---|'];
  for (const [key, outcomes] of rows) lines.push(`${key}| ${outcomes.before ?? '–'} | ${outcomes.after ?? '–'} |`);
  console.log(`\n<!-- fault matrix: completion → sealing → outbox → delivery -->\n${lines.join('\n')}\n`);
});
