// Issue 28 › 10, faults lose nothing: every faultable call on the way from a submitter's completion to
// the endpoint's 2xx (completion → sealing → outbox → delivery) fails once, before or after it did its
// work, and once the queues have redelivered what they would and the cron has swept, the submission is
// completed once, sealed once, and every event reached the endpoint under one delivery id.
// The matrix it prints is in docs/faults.md.
import { afterAll, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { api, createAccount, shardOf } from '../helpers';
import { completeValues, createTemplate } from '../submission-fixtures';
import { drainFor, receiverHook } from '../webhook-fixtures';
import { FAULT_KINDS, faultEachCall, withFaults, type Call, type FaultPlan, type Faults } from '../fault-injection';
import {
  lastEventOf,
  matrixTable,
  newOutcome,
  problemsOf,
  settle,
  workerFetch,
  type Flow,
  type MatrixRow,
  type Outcome,
} from '../fault-scenarios';

const EVENTS = ['form.completed', 'submitter.completed', 'submission.completed', 'document.generated'];

/** A pending submission of its own account with an endpoint on the real receiver; earlier events already fanned out. */
async function prepare(): Promise<Flow & { token: string }> {
  const account = await createAccount({ name: 'Faulted' });
  const template = await createTemplate(account.token, ['Signer']);
  const created = await api('POST', '/api/submissions', {
    token: account.token,
    body: { template_id: template.id, submitters: [{ role: 'Signer', email: `f${crypto.randomUUID().slice(0, 8)}@example.com` }] },
  });
  expect(created.status).toBe(201);
  await drainFor(account.accountId);
  const { receiver } = await receiverHook(account.token);
  const shard = await shardOf(account.accountId);
  return {
    accountId: account.accountId,
    token: account.token,
    submissionId: created.json.id,
    submitterId: created.json.submitters[0].id,
    receiver,
    shard,
    lastEventBefore: await lastEventOf(shard, account.accountId),
  };
}

/** The completion as a client sends it (PUT /api/submitters/{id}), repeated on a 5xx as a client would. */
async function complete(flow: Flow & { token: string }, faulty: Bindings, faults: Faults): Promise<string[]> {
  faults.phase = 'completion request';
  const answers: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await workerFetch(faulty, 'PUT', `/api/submitters/${flow.submitterId}`, {
      headers: { 'X-Auth-Token': flow.token },
      body: { completed: true, values: completeValues('Signer') },
    });
    answers.push(res.status);
    if (res.status < 500) break;
  }
  return [`API ${answers.join('→')}`];
}

/** One run: the completion with `plan`'s fault in it, then queues and crons until nothing is left to do. */
async function run(plan: FaultPlan): Promise<{ outcome: Outcome; calls: Call[] }> {
  const flow = await prepare();
  const { faults, env: faulty } = withFaults(plan);
  const outcome = newOutcome();
  faults.interceptFetch();
  try {
    outcome.answers = await complete(flow, faulty, faults);
    const calls = await settle(flow, faulty, faults, outcome);
    outcome.problems = await problemsOf(flow, EVENTS);
    return { outcome, calls };
  } finally {
    faults.restore();
  }
}

let clean: Call[] = [];
const matrix: MatrixRow[] = [];

describe('faults on the way from an API completion to delivery', () => {
  it('without a fault: completed once, sealed once, four events delivered once each', async () => {
    const { outcome, calls } = await run(null);
    clean = calls;
    expect(outcome.problems).toEqual([]);
    expect(outcome.answers).toEqual(['API 200']);
    expect(outcome.cronRuns).toBe(0);
    expect(outcome.ids).toBe(4);
    for (const kind of FAULT_KINDS.filter((k) => k !== 'fetch.csc'))
      expect(
        calls.some((c) => c.kind === kind),
        kind,
      ).toBe(true);
  }, 60_000);

  for (const kind of FAULT_KINDS.filter((k) => k !== 'fetch.csc')) {
    for (const mode of ['before', 'after'] as const) {
      it(`${kind} failing ${mode} its work, each call once: nothing lost or doubled`, async () => {
        expect(await faultEachCall(clean, kind, mode, run, matrix)).toEqual([]);
      }, 300_000);
    }
  }
});

afterAll(() => {
  if (matrix.length) console.log(matrixTable('API completion → sealing → outbox → delivery', matrix));
});
