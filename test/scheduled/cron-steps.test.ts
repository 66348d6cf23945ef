// The cron runs each of its steps on its own: one that throws never stops the others.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleScheduled, type CronStep } from '../../src/scheduled';
import { api, createAccount } from '../helpers';
import { createTemplate } from '../submission-fixtures';
import { insertEvent } from '../webhook-fixtures';

/** A webhooks queue binding whose every send fails, as a Queues outage would. */
const brokenQueue = {
  send: async () => {
    throw new Error('queue unavailable');
  },
  sendBatch: async () => {
    throw new Error('queue unavailable');
  },
} as unknown as typeof env.WEBHOOK_QUEUE;

describe('the cron', () => {
  it('still expires due submissions when the webhook outbox drain before it fails', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token, ['Buyer']);
    const created = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, send_email: false, submitters: [{ role: 'Buyer', email: 'buyer@example.com' }], expire_at: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(created.status).toBe(201);
    await env.DB.prepare('UPDATE submissions SET expire_at = ? WHERE id = ?').bind(new Date(Date.now() - 1000).toISOString(), created.json.id).run();
    // An endpoint and an undispatched event: the drain commits its deliveries, then cannot enqueue them.
    await env.DB.prepare("INSERT INTO webhooks (account_id, url, events, secret) VALUES (?, 'https://hooks.example.com/x', '[]', 'secret-0123456789')").bind(owner.accountId).run();
    await insertEvent(owner.accountId, 'template.created');

    await expect(handleScheduled({ ...env, WEBHOOK_QUEUE: brokenQueue }, Date.now())).rejects.toThrow('webhook outbox drain');

    const submission = await api('GET', `/api/submissions/${created.json.id}`, { token: owner.token });
    expect(submission.json.status).toBe('expired');
  });

  it('runs every step after one that throws, then reports which failed', async () => {
    const ran: string[] = [];
    const step = (name: string, fail = false): CronStep => ({
      name,
      async run() {
        ran.push(name);
        if (fail) throw new Error(`${name} broke`);
      },
    });

    await expect(handleScheduled(env, Date.now(), [step('first'), step('second', true), step('third')])).rejects.toThrow('cron steps failed: second');
    expect(ran).toEqual(['first', 'second', 'third']);
  });
});
