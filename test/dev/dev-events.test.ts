// POST /dev/events (development only): the load generator of bench/webhooks. Its `per_second` mode writes
// each event as its own API write would (its own batch), at a steady rate, in one request.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createAccount, shardOf } from '../helpers';

const development = { ENVIRONMENT: 'development', D1_TIMING: 'true' };

async function postEvents(body: unknown) {
  const ctx = createExecutionContext();
  const res = await createApp().request(
    '/dev/events',
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    { ...env, ...development },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

async function storedEvents(accountId: number) {
  const { results } = await (await shardOf(accountId))
    .prepare('SELECT id, event, created_at FROM events WHERE account_id = ? ORDER BY id')
    .bind(accountId)
    .all<{ id: number; event: string; created_at: string }>();
  return results;
}

describe('POST /dev/events', () => {
  it('writes count events in one batch', async () => {
    const a = await createAccount();
    const res = await postEvents({ account_id: a.accountId, event: 'form.completed', count: 3 });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: 3 });
    // The account's lookup on the control database, then one batch.
    expect(res.headers.get('Server-Timing')).toMatch(/desc="2 calls"$/);
    expect((await storedEvents(a.accountId)).map((e) => e.event)).toEqual(['form.completed', 'form.completed', 'form.completed']);
  });

  it('with per_second writes each event in its own batch, spread at that rate', async () => {
    const a = await createAccount();
    const res = await postEvents({ account_id: a.accountId, event: 'submission.created', count: 5, per_second: 40 });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: 5 });
    expect(res.headers.get('Server-Timing')).toMatch(/desc="6 calls"$/);
    const events = await storedEvents(a.accountId);
    expect(events).toHaveLength(5);
    // Due 25 ms apart: the last is written at least 100 ms after the first.
    const span = Date.parse(events[4].created_at) - Date.parse(events[0].created_at);
    expect(span).toBeGreaterThanOrEqual(90);
  });

  it('answers 422 with a sentence for a rate or count out of range', async () => {
    const a = await createAccount();
    for (const [body, error] of [
      [{ count: 2, per_second: 0 }, 'per_second must be a number above 0 and at most 1000.'],
      [{ count: 2, per_second: 'fast' }, 'per_second must be a number above 0 and at most 1000.'],
      [{ count: 2, per_second: 5000 }, 'per_second must be a number above 0 and at most 1000.'],
      [{ count: 10_001, per_second: 100 }, 'count must be between 1 and 10000.'],
      [{ count: 1_001 }, 'count must be between 1 and 1000.'],
    ] as const) {
      const res = await postEvents({ account_id: a.accountId, event: 'form.completed', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await res.json()).toEqual({ error });
    }
    expect(await storedEvents(a.accountId)).toEqual([]);
  });
});
