// The driver behind the fault-injection tests (test/faults/): a submission's flow from completion to its
// endpoint, with the queues and the cron run the way the platform runs them, the promises every run must
// keep whatever failed, and the matrix (step × outcome) docs/faults.md shows.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../src/index';
import { consumeByShard } from '../src/queues/shard-batches';
import { handleWebhookBatch } from '../src/queues/webhooks';
import type { Bindings } from '../src/env';
import type { SealingQueueBody } from '../src/env';
import type { WebhookMessage } from '../src/env';
import { FAULT_KINDS, messageBatch, type Call, type FaultMode, type Faults } from './fault-injection';
import { receivedBy } from './webhook-receiver';
import { clientAddress } from './helpers';

/** A submission under test: its account (alone on its endpoint), its one signer and where its rows live. */
export type Flow = {
  accountId: number;
  submissionId: number;
  submitterId: number;
  receiver: string;
  shard: D1Database /** The account's last event before the run; later ones must all reach the endpoint. */;
  lastEventBefore: number;
};

/** The account's newest outbox row now (0 without one). */
export async function lastEventOf(shard: D1Database, accountId: number): Promise<number> {
  return (await shard.prepare('SELECT coalesce(max(id), 0) AS n FROM events WHERE account_id = ?').bind(accountId).first<number>('n')) ?? 0;
}

export type Outcome = {
  fired: Call | null;
  answers: string[];
  sealingRuns: number;
  cronRuns: number;
  posts: number;
  ids: number;
  problems: string[];
};

export const newOutcome = (): Outcome => ({ fired: null, answers: [], sealingRuns: 0, cronRuns: 0, posts: 0, ids: 0, problems: [] });

const SEALING = 'signing-service-sealing';
const WEBHOOKS = 'signing-service-webhooks';
/** One cron round moves the clock past the sealing sweep's grace (10 min) and the first webhook retry (1 min). */
const CRON_STEP_MS = 11 * 60_000;
const MAX_ROUNDS = 8;

/** A request to the Worker's fetch() with these bindings, as a client or the signer's browser sends it. */
export async function workerFetch(
  faulty: Bindings,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { 'CF-Connecting-IP': clientAddress(), ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const request = new Request(`https://api.test${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, faulty, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  let json: any; // answers are read field by field
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, location: res.headers.get('Location'), json };
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
      const { batch, redeliveries } = messageBatch<WebhookMessage & SealingQueueBody>(queue, entries);
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
      for (const again of redeliveries(threw))
        faults.mailbox.push({ queue, body: again.body, attempts: again.attempts, dueAt: faults.now + again.delaySeconds * 1000 });
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
  const submission = await flow.shard
    .prepare('SELECT status, sealed_at FROM submissions WHERE id = ?')
    .bind(flow.submissionId)
    .first<{ status: string; sealed_at: string | null }>();
  const undispatched = await count(flow, 'SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL', flow.accountId);
  const pending = await count(
    flow,
    "SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND status = 'pending'",
    flow.accountId,
  );
  return submission?.status === 'completed' && submission.sealed_at !== null && undispatched === 0 && pending === 0;
}

/**
 * After the completion: queues and crons until the submission is sealed and every event delivered (at
 * most MAX_ROUNDS cron rounds), then an hour of quiet, unfaulted runs that must change nothing more.
 * Returns the faultable calls made before the quiet hour.
 */
export async function settle(flow: Flow, faulty: Bindings, faults: Faults, outcome: Outcome): Promise<Call[]> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await runMailbox(faulty, faults, outcome);
    if (await settled(flow)) break;
    faults.now += CRON_STEP_MS;
    outcome.cronRuns += 1;
    await runCron(faulty, faults);
  }
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
  return calls;
}

const count = async (flow: Flow, sql: string, ...binds: unknown[]) =>
  (await flow.shard
    .prepare(sql)
    .bind(...binds)
    .first<number>('n')) ?? 0;

/**
 * What must hold however the run went, each broken promise a sentence: the signer and the submission
 * completed once (trail, billing, events), one sealed document recorded whose file is in R2 and no other
 * file, each of `events` written once, every event of the run delivered under exactly one delivery id,
 * nothing pending.
 */
export async function problemsOf(flow: Flow, events: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  const submitter = await flow.shard
    .prepare('SELECT status FROM submitters WHERE id = ?')
    .bind(flow.submitterId)
    .first<{ status: string }>();
  if (submitter?.status !== 'completed') problems.push(`submitter is ${submitter?.status}`);
  const completions = await count(
    flow,
    "SELECT count(*) AS n FROM submission_events WHERE submitter_id = ? AND action = 'completed'",
    flow.submitterId,
  );
  if (completions !== 1) problems.push(`submitter completed ${completions}×`);
  const usage = await count(flow, 'SELECT count(*) AS n FROM signature_usage WHERE submitter_id = ?', flow.submitterId);
  if (usage !== 1) problems.push(`signature billed ${usage}×`);
  const finished = await count(
    flow,
    "SELECT count(*) AS n FROM submission_events WHERE submission_id = ? AND action = 'submission_completed'",
    flow.submissionId,
  );
  if (finished !== 1) problems.push(`submission completed ${finished}×`);

  const sealed = await flow.shard
    .prepare('SELECT sealed_at FROM submissions WHERE id = ?')
    .bind(flow.submissionId)
    .first<string | null>('sealed_at');
  if (!sealed) problems.push('not sealed');
  const documents = (
    await flow.shard
      .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
      .bind(flow.submissionId)
      .all<{ r2_key: string }>()
  ).results;
  if (documents.length !== 1) problems.push(`${documents.length} sealed documents recorded`);
  const stored = (await env.FILES.list({ prefix: `sealed/${flow.accountId}/${flow.submissionId}/` })).objects.map((o) => o.key);
  for (const d of documents) if (!stored.includes(d.r2_key)) problems.push('the recorded sealed file is missing from R2');
  const orphans = stored.filter((key) => !documents.some((d) => d.r2_key === key));
  if (orphans.length) problems.push(`${orphans.length} sealed file(s) in R2 no row records`);

  const written = (
    await flow.shard
      .prepare('SELECT id, event, data FROM events WHERE account_id = ? ORDER BY id')
      .bind(flow.accountId)
      .all<{ id: number; event: string; data: string }>()
  ).results;
  const mine = written.filter((e) => JSON.parse(e.data).submission?.id === flow.submissionId);
  for (const name of events) {
    const n = mine.filter((e) => e.event === name).length;
    if (n !== 1) problems.push(`${name} written ${n}×`);
  }
  const received = await receivedBy(flow.receiver);
  if (received.some((r) => !r.signatureValid)) problems.push('a delivery with a bad signature');
  const idsByBody = new Map<string, Set<string>>();
  for (const r of received) idsByBody.set(r.body, (idsByBody.get(r.body) ?? new Set()).add(r.headers['x-webhook-delivery-id']));
  for (const [body, ids] of idsByBody)
    if (ids.size !== 1) problems.push(`${JSON.parse(body).event} delivered under ${ids.size} delivery ids`);
  const delivered = [...idsByBody.keys()].map((b) => JSON.parse(b).event as string).sort();
  const due = written
    .filter((e) => e.id > flow.lastEventBefore)
    .map((e) => e.event)
    .sort();
  if (delivered.join() !== due.join()) problems.push(`delivered ${delivered.join(', ') || 'nothing'} of ${due.join(', ')}`);
  const unfinished = await count(
    flow,
    "SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND status = 'pending'",
    flow.accountId,
  );
  if (unfinished) problems.push(`${unfinished} deliveries still pending`);
  return problems;
}

export type MatrixRow = { call: Call; mode: FaultMode; outcome: Outcome };

function describeOutcome(o: Outcome): string {
  const parts = [`${o.answers.join('→')}`, `sealing runs ${o.sealingRuns}`, `cron rounds ${o.cronRuns}`, `${o.ids} ids / ${o.posts} posts`];
  return `${o.problems.length ? `✗ ${o.problems.join('; ')}` : '✓'} ${parts.join(' · ')}`;
}

/** The matrix as a markdown table: one row per faulted call, its outcome when it fails before and after its work. */
export function matrixTable(title: string, matrix: readonly MatrixRow[]): string {
  const rows = new Map<string, Partial<Record<FaultMode, string>>>();
  const order = (row: MatrixRow) => FAULT_KINDS.indexOf(row.call.kind);
  for (const { call, mode, outcome } of [...matrix].sort((a, b) => order(a) - order(b) || a.call.nth - b.call.nth)) {
    const key = `| ${call.kind} #${call.nth} | ${call.phase} | ${call.what} `;
    rows.set(key, { ...rows.get(key), [mode]: describeOutcome(outcome) });
  }
  const lines = ['| call | where | what | fails before it | fails after it (done, error returned) |', '|---|---|---|---|---|'];
  for (const [key, outcomes] of rows) lines.push(`${key}| ${outcomes.before ?? '–'} | ${outcomes.after ?? '–'} |`);
  return `\n<!-- fault matrix: ${title} -->\n${lines.join('\n')}\n`;
}
