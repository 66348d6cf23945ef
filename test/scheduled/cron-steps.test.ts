// The cron runs each of its steps on its own: one that throws never stops the others.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleScheduled, type CronStep } from '../../src/scheduled';
import { allShards, api, createAccount, shardOf } from '../helpers';
import { createTemplate } from '../submission-fixtures';
import { insertEvent } from '../webhook-fixtures';

/** A messages queue binding whose every send fails, as a Queues outage would. */
const brokenQueue = {
  send: async () => {
    throw new Error('queue unavailable');
  },
  sendBatch: async () => {
    throw new Error('queue unavailable');
  },
} as unknown as typeof env.MESSAGES_QUEUE;

describe('the cron', () => {
  it('still expires due submissions and drains the webhook outbox when the first step fails', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token, ['Buyer']);
    const created = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        send_email: false,
        submitters: [{ role: 'Buyer', email: 'buyer@example.com' }],
        expire_at: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), created.json.id)
      .run();
    // A message whose queue message was lost: the first step finds it and cannot re-enqueue it.
    await (await shardOf(owner.accountId))
      .prepare(
        "INSERT INTO messages (account_id, channel, kind, recipient, text, status, created_at) VALUES (?, 'email', 'invitation', 'lost@example.com', 'hi', 'queued', ?)",
      )
      .bind(owner.accountId, new Date(Date.now() - 3_600_000).toISOString())
      .run();
    const eventId = await insertEvent(owner.accountId, 'template.created');

    await expect(handleScheduled({ ...env, MESSAGES_QUEUE: brokenQueue }, Date.now())).rejects.toThrow('stalled messages');

    const submission = await api('GET', `/api/submissions/${created.json.id}`, { token: owner.token });
    expect(submission.json.status).toBe('expired');
    const event = await (await shardOf(owner.accountId))
      .prepare('SELECT dispatched_at FROM events WHERE id = ?')
      .bind(eventId)
      .first<{ dispatched_at: string | null }>();
    expect(event!.dispatched_at).not.toBeNull();
  });

  it('runs every step after one that throws, then reports which failed', async () => {
    const ran: [number, string][] = [];
    const step = (name: string, fail = false): CronStep => ({
      name,
      async run({ shard }) {
        ran.push([shard, name]);
        if (fail) throw new Error(`${name} broke`);
      },
    });

    await expect(handleScheduled(env, Date.now(), [step('first'), step('second', true), step('third')])).rejects.toThrow(
      'cron steps failed: second (shard 0), second (shard 1)',
    );
    // On each shard, in order.
    for (const shard of allShards().keys()) {
      expect(ran.filter(([s]) => s === shard).map(([, name]) => name)).toEqual(['first', 'second', 'third']);
    }
    expect(ran).toHaveLength(3 * allShards().length);
  });
});
