// Queue messages carry the shard whose rows they are about (issue 14 › 3): producers on an account's
// request stamp its shard, and the Worker's queue() hands each shard's part of a batch that shard's rows.
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { getMessage } from '../../src/db/queries/messages';
import worker from '../../src/index';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { emailMessage, queueMessageInsert } from '../../src/services/mail/outbox';
import type { MessageQueueBody } from '../../src/env';
import { createAccount, shardOf, type TestAccount, clientAddress } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { completeValues, createTemplate } from '../submission-fixtures';
import { deliverMessage, deliveryRows, fanOutFor, insertEvent, pendingUuids, receiverHook, runQueue } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

/** Two accounts, one on each of the first two shards (the helpers alternate them). */
async function accountsOnBothShards(): Promise<[TestAccount, TestAccount]> {
  const first = await createAccount();
  const second = await createAccount();
  const byShard = new Map([
    [await shardNumberOf(first.accountId), first],
    [await shardNumberOf(second.accountId), second],
  ]);
  expect([...byShard.keys()].sort()).toEqual([0, 1]);
  return [byShard.get(0)!, byShard.get(1)!];
}

type Sent = { messages: unknown[]; webhooks: unknown[]; sealing: unknown[] };

/** The test bindings with queue producers that record every body they are given. */
function recordingEnv(): { sent: Sent; bindings: typeof env } {
  const sent: Sent = { messages: [], webhooks: [], sealing: [] };
  const recording = (list: unknown[]) =>
    ({
      send: async (body: unknown) => void list.push(body),
      sendBatch: async (messages: Iterable<{ body: unknown }>) => void list.push(...[...messages].map((m) => m.body)),
    }) as unknown as Queue<never>;
  return {
    sent,
    bindings: {
      ...env,
      MESSAGES_QUEUE: recording(sent.messages),
      WEBHOOK_QUEUE: recording(sent.webhooks),
      SEALING_QUEUE: recording(sent.sealing),
    },
  };
}

async function fetchWith(bindings: typeof env, method: string, path: string, token: string, body: unknown) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://api.test${path}`, {
      method,
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', 'CF-Connecting-IP': clientAddress() },
      body: JSON.stringify(body),
    }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, json: (await res.json()) as any }; // asserted field by field
}

describe('messages carry their shard', () => {
  it('stamps shard 1 on the messages, drain and sealing messages a SHARD_1 account’s changes send', async () => {
    const [, onOne] = await accountsOnBothShards();
    await receiverHook(onOne.token);
    const template = await createTemplate(onOne.token, ['Buyer']);
    const { sent, bindings } = recordingEnv();

    const created = await fetchWith(bindings, 'POST', '/api/submissions', onOne.token, {
      template_id: template.id,
      send_email: true,
      submitters: [{ role: 'Buyer', email: 'buyer@example.com' }],
    });
    expect(created.status).toBe(201);
    expect(sent.messages).not.toHaveLength(0);
    expect(sent.messages).toEqual(sent.messages.map(() => expect.objectContaining({ type: 'message', shard: 1 })));
    expect(sent.webhooks).toEqual([{ kind: 'drain', shard: 1 }]);

    const done = await fetchWith(bindings, 'PUT', `/api/submitters/${created.json.submitters[0].id}`, onOne.token, {
      values: completeValues('Buyer'),
      completed: true,
    });
    expect(done.status).toBe(200);
    expect(sent.sealing).toEqual([{ type: 'seal', submissionId: created.json.id, shard: 1 }]);
  });

  it('stamps shard 1 on the retry wake-ups the first attempts of a SHARD_1 drain send', async () => {
    const [, onOne] = await accountsOnBothShards();
    // The drain makes the first attempt itself; the endpoint fails it, so a retry is woken through the queue.
    const { hook } = await receiverHook(onOne.token, { receiver: { failFirst: 1 } });
    await insertEvent(onOne.accountId, 'form.completed');
    const { sent, bindings } = recordingEnv();

    const batch = createMessageBatch('signing-service-webhooks', [
      { id: 'drain-1', timestamp: new Date(), attempts: 1, body: { kind: 'drain', shard: 1 } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, bindings, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['drain-1']);

    // The drain fans out every undispatched event of shard 1, this account's among them.
    const [uuid] = await pendingUuids(hook.id);
    expect(sent.webhooks).toContainEqual({ kind: 'deliver', deliveryUuid: uuid, shard: 1 });
    expect(sent.webhooks).toEqual(sent.webhooks.map(() => expect.objectContaining({ kind: 'deliver', shard: 1 })));
  });
});

describe('a batch mixing shards', () => {
  it('delivers the webhooks of both shards from one batch, each from its own shard’s rows', async () => {
    const [onZero, onOne] = await accountsOnBothShards();
    const zero = await receiverHook(onZero.token);
    const one = await receiverHook(onOne.token);
    await insertEvent(onZero.accountId, 'form.viewed');
    await insertEvent(onOne.accountId, 'form.completed');
    await fanOutFor([onZero.accountId, onOne.accountId]);
    const [zeroUuid] = await pendingUuids(zero.hook.id);
    const [oneUuid] = await pendingUuids(one.hook.id);

    const result = await runQueue([await deliverMessage(zeroUuid), await deliverMessage(oneUuid)]);

    expect(result.explicitAcks).toHaveLength(2);
    expect((await receivedBy(zero.receiver)).map((d) => JSON.parse(d.body).event)).toEqual(['form.viewed']);
    expect((await receivedBy(one.receiver)).map((d) => JSON.parse(d.body).event)).toEqual(['form.completed']);
    expect((await deliveryRows(zero.hook.id)).map((r) => r.status)).toEqual(['success']);
    expect((await deliveryRows(one.hook.id)).map((r) => r.status)).toEqual(['success']);
  });

  it('sends the queued messages of both shards from one batch, each from its own shard’s rows', async () => {
    const accounts = await accountsOnBothShards();
    const stored = await Promise.all(
      accounts.map(async (a) => {
        const db = createDb(await shardOf(a.accountId));
        const row = emailMessage(
          'invitation',
          {
            branding: { companyName: 'Acme', serviceName: 'Signing Service' },
            submitter: { name: 'Ann', email: `ann-${a.accountId}@example.com`, link: 'https://sign.test/s/abc123' },
            template: { name: 'NDA' },
            submission: { expireAt: null },
          },
          { accountId: a.accountId },
        );
        const [inserted] = await queueMessageInsert(db, { ...row, accountId: a.accountId });
        return { db, id: inserted.id, shard: await shardNumberOf(a.accountId) };
      }),
    );
    const batch = createMessageBatch<MessageQueueBody & ShardStamp>(
      'signing-service-messages',
      stored.map(({ id, shard }) => ({ id: `message-${id}`, timestamp: new Date(), attempts: 1, body: { type: 'message', id, shard } })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);

    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(2);
    for (const { db, id } of stored) expect((await getMessage(db, id))!.status).toBe('sent');
  });
});
