// Events written off the request path (sealing's document.generated, expiry's form.expired and
// submission.expired) wake the webhook fan-out at once, as API writes do, instead of waiting for the cron.
import { createMessageBatch, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumeSealing } from '../../src/queues/sealing';
import { expireDueSubmissions } from '../../src/services/submissions/expire-submissions';
import type { SealingQueueBody, WebhookQueue } from '../../src/env';
import { shardScope, type ShardScope } from '../../src/db/shards';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { accountEvents, shardNumberOf } from '../shard-fixtures';
import { completeValues, createTemplate, type TemplateFixture } from '../submission-fixtures';
import { recordingQueue } from '../webhook-fixtures';

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount();
  template = await createTemplate(owner.token, ['Buyer']);
});

/** The owner's shard as the cron and the consumers see it, with this webhooks queue behind its stamping producer. */
async function ownerScope(queue: WebhookQueue): Promise<ShardScope> {
  return shardScope({ ...env, WEBHOOK_QUEUE: queue }, await shardNumberOf(owner.accountId));
}

const outboxRows = (where: string, ...binds: unknown[]) => accountEvents(owner.accountId, where, ...binds);

async function createSubmission(extra: Record<string, unknown> = {}): Promise<{ id: number; submitterId: number }> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      send_email: false,
      submitters: [{ role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, name: 'Bo Buyer' }],
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return { id: res.json.id, submitterId: res.json.submitters[0].id };
}

describe('background jobs wake the webhook fan-out', () => {
  it('sealing a submission sends a drain message once its document.generated events are written', async () => {
    const s = await createSubmission();
    const done = await api('PUT', `/api/submitters/${s.submitterId}`, {
      token: owner.token,
      body: { values: completeValues('Buyer'), completed: true },
    });
    expect(done.status).toBe(200);
    const { sent, queue } = recordingQueue();

    await consumeSealing(
      createMessageBatch<SealingQueueBody>('signing-service-sealing', [
        {
          id: 'seal-1',
          timestamp: new Date(),
          attempts: 1,
          body: { type: 'seal', submissionId: s.id, shard: await shardNumberOf(owner.accountId) } as SealingQueueBody & ShardStamp,
        },
      ]),
      await ownerScope(queue),
    );

    expect(await outboxRows("event = 'document.generated' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    expect(sent).toEqual([{ kind: 'drain', shard: await shardNumberOf(owner.accountId) }]);
  });

  it('expiring submissions sends a drain message once their expiry events are written', async () => {
    const s = await createSubmission({ expire_at: new Date(Date.now() + 60_000).toISOString() });
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), s.id)
      .run();
    const { sent, queue } = recordingQueue();

    const result = await expireDueSubmissions(await ownerScope(queue), new Date());

    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(await outboxRows("event = 'submission.expired' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    expect(sent).toEqual([{ kind: 'drain', shard: await shardNumberOf(owner.accountId) }]);
  });

  it('a failed wake-up never fails the expiry that wrote the events', async () => {
    const s = await createSubmission({ expire_at: new Date(Date.now() + 60_000).toISOString() });
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), s.id)
      .run();
    const broken = {
      send: async () => {
        throw new Error('queue unavailable');
      },
    } as unknown as WebhookQueue;

    await expect(expireDueSubmissions(await ownerScope(broken), new Date())).resolves.toMatchObject({ more: false });

    expect(await outboxRows("event = 'submission.expired' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
  });
});
