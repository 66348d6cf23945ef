// The audit middleware when its trail row cannot be written after the request's own change committed:
// the account started moving, or the write failed.
import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/app-base';
import type { AppEnv } from '../../src/app-env';
import type { MessageQueueBody } from '../../src/env';
import { auditTrail } from '../../src/middleware/audit';
import { controlDatabase } from '../../src/middleware/databases';
import { requestId } from '../../src/middleware/request-id';
import { consumeMessages } from '../../src/queues/messages';
import { shardScope } from '../../src/db/shards';
import { messageBatch, withFaults, type MailboxEntry } from '../fault-injection';
import { createAccount } from '../helpers';

const trailRows = (accountId: number) =>
  env.SHARD_0!.prepare('SELECT action, status, request_id, created_at FROM audit_events WHERE account_id = ?').bind(accountId).all();

/** An app whose one route commits a change through the real binding, then the middleware writes its row through `bindings`. */
async function changeApp(bindings: typeof env, beforeTrail: (accountId: number) => Promise<void> = async () => {}) {
  const { accountId } = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET shard = 0 WHERE id = ?').bind(accountId).run();
  const app = new Hono<AppEnv>();
  app.onError(errorResponse);
  app.use('*', requestId());
  app.use('*', controlDatabase());
  app.use('*', auditTrail({ subject: () => ({ accountId, userId: null, accessTokenId: null, actor: 'test' }) }));
  app.post('/change', async (c) => {
    await beforeTrail(accountId);
    return c.json({ changed: true }, 201);
  });
  return { accountId, request: () => app.request('/change', { method: 'POST' }, bindings) };
}

describe('auditTrail after the change committed', () => {
  it('keeps the answer of a request whose trail row meets the fence set after its write', async () => {
    const { accountId, request } = await changeApp(env, (id) =>
      env
        .SHARD_0!.prepare("INSERT INTO account_fences (account_id, reason) VALUES (?, 'moving')")
        .bind(id)
        .run()
        .then(() => {}),
    );

    const res = await request();

    expect(res.status).toBe(201);
    expect((await trailRows(accountId)).results).toHaveLength(0);
  });

  it('keeps the answer when the trail write fails and queues the row, which the consumer writes once', async () => {
    // The request's trail insert is the first D1 write through the faulted bindings (the route writes nothing).
    const { env: faulted } = withFaults({ kind: 'd1.write', nth: 1, mode: 'before' });
    const queued: MailboxEntry[] = [];
    const messages = {
      send: async (body: MessageQueueBody) => void queued.push({ queue: 'signing-service-messages', body, attempts: 1, dueAt: 0 }),
    } as unknown as Queue<MessageQueueBody>;
    const { accountId, request } = await changeApp({ ...faulted, MESSAGES_QUEUE: messages });

    const res = await request();

    expect(res.status).toBe(201);
    expect((await trailRows(accountId)).results).toHaveLength(0);
    expect(queued.map((m) => (m.body as { type: string }).type)).toEqual(['audit_event']);

    // Delivered twice (a redelivery after a write whose ack was lost): one row, as the request ended.
    for (let delivery = 0; delivery < 2; delivery++) {
      const { batch, redeliveries } = messageBatch<MessageQueueBody>('signing-service-messages', queued);
      await consumeMessages(batch, shardScope(env, 0));
      expect(redeliveries(false)).toEqual([]);
    }
    const rows = (await trailRows(accountId)).results;
    expect(rows).toEqual([{ action: 'post /change', status: 201, request_id: expect.any(String), created_at: expect.any(String) }]);
    expect(rows[0].request_id).toBe(res.headers.get('X-Request-Id'));
  });

  it('answers the request even when the queue refuses the row too', async () => {
    const { env: faulted } = withFaults({ kind: 'd1.write', nth: 1, mode: 'before' });
    const messages = { send: async () => Promise.reject(new Error('queue down')) } as unknown as Queue<MessageQueueBody>;
    const { accountId, request } = await changeApp({ ...faulted, MESSAGES_QUEUE: messages });

    const res = await request();

    expect(res.status).toBe(201);
    expect((await trailRows(accountId)).results).toHaveLength(0);
  });
});
