// Issue 21 › 2: no submission is ever stuck. Every submitter of a parallel submission completing at the
// same moment — through the API and the signing page at once — completes the submission exactly once:
// one submission.completed, sealed, delivered once. The cron repairs submissions left pending before.
import { createExecutionContext, createMessageBatch, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { SealingQueueBody } from '../../src/env';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { page, acceptDisclosure } from '../signing/fixtures';
import { completeValues, createTemplate, outboxRows, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { deliverPending, receiverHook, runQueue } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

const ROLES = ['Client', 'Manager', 'Director'];
const ROUNDS = 20;

let owner: TestAccount;
let template: TemplateFixture;

async function seal(submissionId: number) {
  const shard = await shardNumberOf(owner.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `s${submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The role's values keyed by field uuid, as the signing page sends them. */
function pageValues(role: string): Record<string, unknown> {
  const byName = completeValues(role);
  return Object.fromEntries(template.fields.filter((f) => f.name in byName).map((f) => [f.uuid, byName[f.name as keyof typeof byName]]));
}

async function parallelSubmission(): Promise<{ id: number; submitters: { id: number; slug: string; role: string }[] }> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters_order: 'parallel',
      send_email: false,
      submitters: ROLES.map((role) => ({ role, email: `${role.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com` })),
    },
  });
  if (res.status !== 201) throw new Error(`submission: ${res.status} ${res.text}`);
  return res.json;
}

async function status(id: number): Promise<string> {
  return (await (
    await shardOf(owner.accountId)
  )
    .prepare('SELECT status FROM submissions WHERE id = ?')
    .bind(id)
    .first<{ status: string }>())!.status;
}

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ROLES);
});

describe('concurrent completions', () => {
  it('complete every submission exactly once when all its signers finish at the same moment', async () => {
    const { hook, receiver } = await receiverHook(owner.token, { events: ['submission.completed'] });
    const ids: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const s = await parallelSubmission();
      ids.push(s.id);
      const [client, manager, director] = s.submitters;
      await acceptDisclosure(manager.slug);
      // Two through the API, one through the signing page, all in flight together.
      const answers = await Promise.all([
        api('PUT', `/api/submitters/${client.id}`, { token: owner.token, body: { values: completeValues('Client'), completed: true } }),
        page('POST', `/s/${manager.slug}/submit`, { body: { values: pageValues('Manager') } }),
        api('PUT', `/api/submitters/${director.id}`, { token: owner.token, body: { values: completeValues('Director'), completed: true } }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(await status(s.id)).toBe('completed');
    }

    for (const id of ids) {
      const completed = await outboxRows("event = 'submission.completed' AND json_extract(data, '$.submission.id') = ?", id);
      expect(completed).toHaveLength(1);
      await seal(id);
      const documents = await api('GET', `/api/submissions/${id}/documents`, { token: owner.token });
      expect(documents.status).toBe(200);
      expect(documents.json.documents.length).toBeGreaterThan(0);
    }

    await runQueue([{ kind: 'drain', shard: await shardNumberOf(owner.accountId) }]);
    await deliverPending(hook.id);
    const delivered = (await receivedBy(receiver)).map(
      (d) => JSON.parse(d.body) as { event: string; data: { submission: { id: number } } },
    );
    for (const id of ids)
      expect(delivered.filter((d) => d.event === 'submission.completed' && d.data.submission.id === id)).toHaveLength(1);
  }, 120_000);

  it('answers the same completion sent twice at once with one success and one refusal', async () => {
    const s = await parallelSubmission();
    const client = s.submitters[0];
    const body = { values: completeValues('Client'), completed: true };
    const answers = await Promise.all([
      api('PUT', `/api/submitters/${client.id}`, { token: owner.token, body }),
      api('PUT', `/api/submitters/${client.id}`, { token: owner.token, body }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.json.error).toBe('This submitter is already completed.');
    expect(await outboxRows("event = 'form.completed' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
  });
});

describe('the completion sweep', () => {
  it('completes, once, a submission left pending with every submitter completed', async () => {
    const s = await parallelSubmission();
    for (const submitter of s.submitters.slice(0, 2)) {
      const role = submitter.role;
      expect(
        (
          await api('PUT', `/api/submitters/${submitter.id}`, {
            token: owner.token,
            body: { values: completeValues(role), completed: true },
          })
        ).status,
      ).toBe(200);
    }
    // The state the race left before: the last submitter completed, the submission still pending.
    await (await shardOf(owner.accountId))
      .prepare("UPDATE submitters SET status = 'completed', completed_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), s.submitters[2].id)
      .run();
    expect(await status(s.id)).toBe('pending');

    await runCron();
    expect(await status(s.id)).toBe('completed');
    await runCron();
    expect(await outboxRows("event = 'submission.completed' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    const trail = await (await shardOf(owner.accountId))
      .prepare("SELECT count(*) AS n FROM submission_events WHERE submission_id = ? AND action = 'submission_completed'")
      .bind(s.id)
      .first<{ n: number }>();
    expect(trail!.n).toBe(1);
  });

  it('leaves alone a submission whose signers have not all completed', async () => {
    const s = await parallelSubmission();
    expect(
      (
        await api('PUT', `/api/submitters/${s.submitters[0].id}`, {
          token: owner.token,
          body: { values: completeValues('Client'), completed: true },
        })
      ).status,
    ).toBe(200);
    await runCron();
    expect(await status(s.id)).toBe('pending');
    expect(await outboxRows("event = 'submission.completed' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(0);
  });
});
