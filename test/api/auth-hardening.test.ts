// Unauthenticated traffic does not reach D1 unchecked (issue 21 › 6): malformed tokens are refused
// without a query, and an address that fails too often is refused before the lookup.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { AUTH_FAILURE_LIMIT } from '../../src/lib/limits';
import { api, createAccount, createToken, partnerKeys } from '../helpers';

/** The real D1 bindings (control and every shard), with every statement the Worker prepares or batches counted. */
function countedD1() {
  const counted = { queries: 0 };
  const bindings: Record<string, D1Database> = {};
  for (const [name, binding] of Object.entries(env)) {
    if (name === 'CONTROL_DB' || /^SHARD_\d+$/.test(name)) bindings[name] = countedBinding(binding as D1Database, counted);
  }
  return { bindings, counted };
}

function countedBinding(binding: D1Database, counted: { queries: number }): D1Database {
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'prepare' || property === 'batch' || property === 'exec') {
        return (...args: unknown[]) => {
          counted.queries += 1;
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/** The real RateLimiter namespace, with the name of every object the Worker asks for recorded. */
function recordedLimiters() {
  const names: string[] = [];
  const namespace = new Proxy(env.RATE_LIMITER, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'idFromName') {
        return (name: string) => {
          names.push(name);
          return target.idFromName(name);
        };
      }
      return value.bind(target);
    },
  });
  return { namespace, names };
}

/** One request through the Worker's fetch with D1 counted, as the platform would send it. */
async function counted(path: string, headers: Record<string, string>, ip: string) {
  const { bindings, counted: d1 } = countedD1();
  const { namespace, names } = recordedLimiters();
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`https://api.test${path}`, { headers: { 'CF-Connecting-IP': ip, ...headers } }),
    { ...env, ...bindings, RATE_LIMITER: namespace },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, headers: response.headers, json, queries: d1.queries, limiters: names };
}

const unknownToken = () => `tok_${'x'.repeat(30)}${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;

let block = 0;
/**
 * A fresh client address per test, from a range no other test uses (RFC 2544's): refusals are
 * remembered by the isolate, beyond one test's storage.
 */
function freshIp() {
  block += 1;
  return `198.19.0.${block}`;
}

async function failTimes(n: number, ip: string) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 1) statuses.push((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, ip)).status);
  return statuses;
}

describe('tokens not of our format', () => {
  it.each([
    ['too short', 'tok_abc'],
    ['too long', `tok_${'a'.repeat(41)}`],
    ['outside base62', `tok_${'a'.repeat(39)}-`],
    ['another prefix', `key_${'a'.repeat(40)}`],
    ['no prefix', 'a'.repeat(44)],
  ])('are refused with 401 and no D1 query (%s)', async (_, token) => {
    const res = await counted('/api/user', { 'X-Auth-Token': token }, freshIp());
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The API token is not valid.');
    expect(res.queries).toBe(0);
  });

  it('are refused the same way as a Bearer token', async () => {
    const res = await counted('/api/user', { Authorization: 'Bearer tok_short' }, freshIp());
    expect(res.status).toBe(401);
    expect(res.queries).toBe(0);
  });

  it('are not mistaken for unknown tokens of our format, which are looked up', async () => {
    // The counter above sees queries: a token in our format costs the lookup.
    const res = await counted('/api/user', { 'X-Auth-Token': unknownToken() }, freshIp());
    expect(res.status).toBe(401);
    expect(res.queries).toBeGreaterThan(0);
  });
});

describe('failed authentications per address', () => {
  it(`answer 401 up to ${AUTH_FAILURE_LIMIT} a minute, then 429 with Retry-After`, async () => {
    const ip = freshIp();
    expect(await failTimes(AUTH_FAILURE_LIMIT, ip)).toEqual(Array(AUTH_FAILURE_LIMIT).fill(401));
    const res = await counted('/api/user', { 'X-Auth-Token': unknownToken() }, ip);
    expect(res.status).toBe(429);
    expect(res.json.error).toMatch(/^Too many failed authentications from this address \(30 per 60 seconds\); retry in \d+ seconds?\.$/);
    const wait = Number(res.headers.get('Retry-After'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it('refuse the next attempt from that address without a D1 query', async () => {
    const ip = freshIp();
    await failTimes(AUTH_FAILURE_LIMIT + 1, ip);
    const res = await counted('/api/user', { 'X-Auth-Token': unknownToken() }, ip);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(res.queries).toBe(0);
  });

  it('refuse even a valid token from that address, before looking it up', async () => {
    const a = await createAccount();
    const ip = freshIp();
    await failTimes(AUTH_FAILURE_LIMIT + 1, ip);
    const res = await counted('/api/user', { 'X-Auth-Token': a.token }, ip);
    expect(res.status).toBe(429);
    expect(res.queries).toBe(0);
  });

  it('leave other addresses alone', async () => {
    const a = await createAccount();
    await failTimes(AUTH_FAILURE_LIMIT + 1, freshIp());
    const other = freshIp();
    expect((await counted('/api/user', { 'X-Auth-Token': a.token }, other)).status).toBe(200);
    expect((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, other)).status).toBe(401);
  });

  it('are counted exactly when they arrive at once', async () => {
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 45 }, () => api('GET', '/api/user', { token: unknownToken(), ip })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(AUTH_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45 - AUTH_FAILURE_LIMIT);
  });

  it('count an IPv6 client by its /64, so rotating addresses within it does not escape the limit', async () => {
    block += 1;
    const net = `2001:db8:f00:${block.toString(16)}`;
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i += 1) {
      expect((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, `${net}:${(i + 1).toString(16)}::1`)).status).toBe(401);
    }
    expect((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, `${net}:ffff:ffff:ffff:ffff`)).status).toBe(429);
    expect((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, `2001:db8:f00:${(block + 1000).toString(16)}::1`)).status).toBe(
      401,
    );
  });

  it('include wrong partner keys, counted against the same address', async () => {
    const ip = freshIp();
    const wrongKey = () => `ptk_wrong${crypto.randomUUID()}`;
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i += 1) {
      expect((await counted('/api/partner/v1/accounts', { Authorization: `Bearer ${wrongKey()}` }, ip)).status).toBe(401);
    }
    expect((await counted('/api/partner/v1/accounts', { Authorization: `Bearer ${wrongKey()}` }, ip)).status).toBe(429);
    expect((await counted('/api/partner/v1/accounts', { Authorization: `Bearer ${partnerKeys()[0]}` }, ip)).status).toBe(429);
    expect((await counted('/api/user', { 'X-Auth-Token': unknownToken() }, ip)).status).toBe(429);
  });

  it('are not counted for a revoked or expired token, which is a real credential', async () => {
    const a = await createAccount();
    const expired = await createToken(a.accountId, a.userId, [], { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const ip = freshIp();
    for (let i = 0; i < AUTH_FAILURE_LIMIT + 1; i += 1) {
      expect((await counted('/api/user', { 'X-Auth-Token': expired }, ip)).status).toBe(401);
    }
  });
});

describe('the cost for valid credentials', () => {
  it('is no call to any limiter but the token’s own', async () => {
    const a = await createAccount();
    const ip = freshIp();
    await counted('/api/user', { 'X-Auth-Token': unknownToken() }, ip); // the address has failed before
    const res = await counted('/api/user', { 'X-Auth-Token': a.token }, ip);
    expect(res.status).toBe(200);
    expect(res.limiters.length).toBeGreaterThan(0);
    expect(res.limiters.every((name) => name.startsWith('token:'))).toBe(true);
  });

  it('is no call to any limiter but the key’s own for a partner key', async () => {
    const res = await counted('/api/partner/v1/accounts', { Authorization: `Bearer ${partnerKeys()[0]}` }, freshIp());
    expect(res.status).toBe(200);
    expect(res.limiters.length).toBeGreaterThan(0);
    expect(res.limiters.every((name) => name.startsWith('partner:'))).toBe(true);
  });
});
