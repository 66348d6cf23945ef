// Issue 21 › 8: an Idempotency-Key whose request committed is never released — not by an error after
// the commit, not by an answer too large for the key store.
import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/app-base';
import type { AppEnv } from '../../src/app-env';
import { idempotency, INLINE_BODY_LIMIT } from '../../src/middleware/idempotency';
import { requestId } from '../../src/middleware/request-id';
import { controlDatabase } from '../../src/middleware/databases';

/** A route that writes an account row through the request's control database, then does what `after` says. */
function appWith(after: 'throw' | 'large' | 'ok' | 'throw-before-write') {
  const app = new Hono<AppEnv>();
  app.use('*', requestId());
  app.use('*', controlDatabase());
  app.onError(errorResponse);
  app.use('*', idempotency({ owner: () => `test-owner-${after}` }));
  app.post('/write', async (c) => {
    if (after === 'throw-before-write') throw new Error('failed before writing');
    const name = `idem-${crypto.randomUUID()}`;
    await c.var.control.$client.prepare("INSERT INTO accounts (name, plan) VALUES (?, 'pro')").bind(name).run();
    if (after === 'throw') throw new Error('failed after the commit');
    if (after === 'large') return c.json({ name, filler: 'x'.repeat(2 * 1024 * 1024 + 1000) }, 201);
    return c.json({ name }, 201);
  });
  return (key: string) =>
    app.request('/write', { method: 'POST', headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' }, body: '{}' }, env);
}

async function accounts(): Promise<number> {
  return (await env.CONTROL_DB.prepare("SELECT count(*) AS n FROM accounts WHERE name LIKE 'idem-%'").first<{ n: number }>())!.n;
}

describe('Idempotency-Key after a commit', () => {
  it('keeps the key of a request that failed after writing, and does not run it again', async () => {
    const send = appWith('throw');
    const before = await accounts();
    const key = crypto.randomUUID();
    const first = await send(key);
    expect(first.status).toBe(500);
    const second = await send(key);
    expect(second.status).toBe(500);
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
    expect(((await second.json()) as { error: string }).error).toContain('was applied');
    expect(await accounts()).toBe(before + 1);
  });

  it('frees the key of a request that failed before writing, so a retry runs', async () => {
    const send = appWith('throw-before-write');
    const key = crypto.randomUUID();
    expect((await send(key)).status).toBe(500);
    const second = await send(key);
    expect(second.status).toBe(500);
    expect(second.headers.get('Idempotency-Replayed')).toBeNull();
  });

  it('replays an answer past the Durable Object row limit (2 MB) whole, without running the request again', async () => {
    const send = appWith('large');
    const before = await accounts();
    const key = crypto.randomUUID();
    const first = await send(key);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    expect(firstBody.length).toBeGreaterThan(INLINE_BODY_LIMIT);
    // Kept in R2, not in the Durable Object's row (which production caps at 2 MB; local SQLite does not).
    const kept = await env.FILES.list({ prefix: 'idempotency/' });
    expect(kept.objects.map((o) => o.size)).toContain(firstBody.length);
    const second = await send(key);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await second.text()).toBe(firstBody);
    expect(await accounts()).toBe(before + 1);
  });

  it('replays an ordinary answer as before', async () => {
    const send = appWith('ok');
    const key = crypto.randomUUID();
    const first = await send(key);
    const second = await send(key);
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await second.text()).toBe(await first.text());
  });
});
