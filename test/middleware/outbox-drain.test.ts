import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import type { AppEnv } from '../../src/app-env';
import { outboxDrain, type OutboxDrainOptions } from '../../src/middleware/outbox-drain';
import { createDb } from '../../src/db/client';
import { controlDb, type AccountScope } from '../../src/db/shards';
import { recordWebhookPresence } from '../../src/services/webhooks/endpoints';
import { createAccount, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';

/** Runs one request through the middleware with an account scope whose webhook queue records what it is sent. */
async function sent(method: string, path: string, options?: OutboxDrainOptions): Promise<unknown[]> {
  const messages: unknown[] = [];
  const queue = { send: async (body: unknown) => void messages.push(body) };
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('scope', { queues: { webhooks: queue } } as unknown as AccountScope);
    await next();
  });
  app.use('*', outboxDrain(options));
  app.all('/ok', (c) => c.json({}, 200));
  app.all('/refused', (c) => c.json({ error: 'no' }, 422));
  const ctx = createExecutionContext();
  await app.request(path, { method }, {}, ctx);
  await waitOnExecutionContext(ctx);
  return messages;
}

describe('outboxDrain', () => {
  it('asks for a drain after a successful mutating request', async () => {
    expect(await sent('POST', '/ok')).toEqual([{ kind: 'drain' }]);
  });

  it('asks for nothing after a read', async () => {
    expect(await sent('GET', '/ok')).toEqual([]);
  });

  it('asks for nothing after a refused request', async () => {
    expect(await sent('DELETE', '/refused')).toEqual([]);
  });

  it('asks for nothing when its condition says there is nowhere to deliver', async () => {
    expect(await sent('POST', '/ok', { when: () => false })).toEqual([]);
    expect(await sent('POST', '/ok', { when: () => true })).toEqual([{ kind: 'drain' }]);
  });
});

describe('the tenant API and the fan-out', () => {
  /** A real change through the whole app (real D1), with a queue binding that records what it is sent. */
  async function createTokenThroughApi(token: string): Promise<unknown[]> {
    const messages: unknown[] = [];
    const queue = { send: async (body: unknown) => void messages.push(body) };
    const ctx = createExecutionContext();
    const res = await createApp().request(
      '/api/access_tokens',
      { method: 'POST', headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'ci' }) },
      { ...env, WEBHOOK_QUEUE: queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(201);
    return messages;
  }

  /**
   * An endpoint row on the account's shard, then the account's control flag brought up to date as the
   * webhook routes do after every endpoint change (accounts.has_webhooks, read by authentication).
   */
  async function addEndpoint(accountId: number, values: { enabled?: boolean; deleted?: boolean } = {}) {
    const shard = await shardOf(accountId);
    await shard
      .prepare('INSERT INTO webhooks (account_id, url, events, secret, enabled, deleted_at) VALUES (?, ?, ?, ?, ?, ?)')
      .bind(
        accountId,
        'https://hooks.example.com/x',
        '[]',
        'secret-0123456789',
        values.enabled === false ? 0 : 1,
        values.deleted ? new Date().toISOString() : null,
      )
      .run();
    await recordWebhookPresence(controlDb(env), createDb(shard), accountId);
  }

  it('wakes the fan-out after a change on an account with a live endpoint', async () => {
    const a = await createAccount();
    await addEndpoint(a.accountId);
    // Stamped with the account's shard, so the consumer drains that shard's outbox.
    expect(await createTokenThroughApi(a.token)).toEqual([{ kind: 'drain', shard: await shardNumberOf(a.accountId) }]);
  });

  it('leaves an account without endpoints to the cron', async () => {
    const a = await createAccount();
    expect(await createTokenThroughApi(a.token)).toEqual([]);
  });

  it("counts neither disabled nor deleted endpoints, nor another account's", async () => {
    const a = await createAccount();
    const b = await createAccount();
    await addEndpoint(a.accountId, { enabled: false });
    await addEndpoint(a.accountId, { deleted: true });
    await addEndpoint(b.accountId);
    expect(await createTokenThroughApi(a.token)).toEqual([]);
  });
});
