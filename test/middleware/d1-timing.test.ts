import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createAccount } from '../helpers';

/** One request through the whole app with the given switches (bench/shards runs with both on). */
async function request(method: string, path: string, token: string, vars: Record<string, string>, body?: unknown) {
  const ctx = createExecutionContext();
  const res = await createApp().request(
    path,
    {
      method,
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const timingOn = { ENVIRONMENT: 'development', D1_TIMING: 'true' };

describe('d1Timing', () => {
  it('reports the time a request waited on D1 and its number of calls in development with D1_TIMING=true', async () => {
    const { token } = await createAccount();
    const res = await request('GET', '/api/user', token, timingOn);
    expect(res.status).toBe(200);
    const [, ms, calls] = res.headers.get('Server-Timing')!.match(/^d1;dur=(\d+\.\d);desc="(\d+) calls"$/)!;
    expect(Number(ms)).toBeGreaterThanOrEqual(0);
    expect(Number(calls)).toBeGreaterThanOrEqual(1);
  });

  it('keeps D1 batches working through the timed databases', async () => {
    const { token } = await createAccount();
    const res = await request('POST', '/api/access_tokens', token, timingOn, { name: 'timed' });
    expect(res.status).toBe(201);
    const stored = await env.CONTROL_DB.prepare("SELECT count(*) AS n FROM access_tokens WHERE name = 'timed'").first<{ n: number }>();
    expect(stored!.n).toBe(1);
    expect(res.headers.get('Server-Timing')).toMatch(/^d1;dur=/);
  });

  it('adds nothing outside development, even with D1_TIMING=true', async () => {
    const { token } = await createAccount();
    const res = await request('GET', '/api/user', token, { ENVIRONMENT: 'test', D1_TIMING: 'true' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Server-Timing')).toBeNull();
  });

  it('adds nothing in development without D1_TIMING', async () => {
    const { token } = await createAccount();
    const res = await request('GET', '/api/user', token, { ENVIRONMENT: 'development' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Server-Timing')).toBeNull();
  });
});
