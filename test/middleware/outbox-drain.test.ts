import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/env';
import { outboxDrain } from '../../src/middleware/outbox-drain';

/** Runs one request through the middleware with a queue binding that records what it is sent. */
async function sent(method: string, path: string): Promise<unknown[]> {
  const app = new Hono<AppEnv>();
  app.use('*', outboxDrain());
  app.all('/ok', (c) => c.json({}, 200));
  app.all('/refused', (c) => c.json({ error: 'no' }, 422));
  const messages: unknown[] = [];
  const queue = { send: async (body: unknown) => void messages.push(body) };
  const ctx = createExecutionContext();
  await app.request(path, { method }, { WEBHOOK_QUEUE: queue }, ctx);
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
});
