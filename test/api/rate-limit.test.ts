import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken } from '../helpers';

describe('rate limiting on the tenant API', () => {
  it('admits exactly 120 of 200 concurrent requests on one token', async () => {
    const a = await createAccount();
    const results = await Promise.all(Array.from({ length: 200 }, () => api('GET', '/api/user', { token: a.token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    expect(results.filter((r) => r.status === 429)).toHaveLength(80);
  });

  it('sends X-RateLimit-Limit, -Remaining and -Reset on a successful response', async () => {
    const a = await createAccount();
    const before = Math.floor(Date.now() / 1000);
    const res = await api('GET', '/api/user', { token: a.token });
    expect(res.headers.get('X-RateLimit-Limit')).toBe('120');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('119');
    const reset = Number(res.headers.get('X-RateLimit-Reset'));
    expect(reset).toBeGreaterThanOrEqual(before + 60);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
  });

  it('counts Remaining down request by request', async () => {
    const a = await createAccount();
    await api('GET', '/api/user', { token: a.token });
    const second = await api('GET', '/api/user', { token: a.token });
    expect(second.headers.get('X-RateLimit-Remaining')).toBe('118');
  });

  it('sends the headers on error responses of authenticated requests', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/users', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.headers.get('X-RateLimit-Limit')).toBe('120');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('119');
  });

  it('answers 429 with Retry-After and a sentence naming the seconds to wait', async () => {
    const a = await createAccount();
    await Promise.all(Array.from({ length: 120 }, () => api('GET', '/api/user', { token: a.token })));
    const res = await api('GET', '/api/user', { token: a.token });
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('Retry-After'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(res.json.error).toBe(
      `Rate limit of 120 requests per 60 seconds exceeded; retry in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
    );
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('120');
    expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('limits each token separately, not the account', async () => {
    const a = await createAccount();
    const second = await createToken(a.accountId, a.userId);
    await Promise.all(Array.from({ length: 120 }, () => api('GET', '/api/user', { token: a.token })));
    expect((await api('GET', '/api/user', { token: a.token })).status).toBe(429);
    expect((await api('GET', '/api/user', { token: second })).status).toBe(200);
  });

  it('limits each token separately, not the client IP', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await Promise.all(Array.from({ length: 120 }, () => api('GET', '/api/user', { token: a.token, ip: '192.0.2.1' })));
    expect((await api('GET', '/api/user', { token: b.token, ip: '192.0.2.1' })).status).toBe(200);
  });

  it('counts /api/v1 and /api requests of one token together', async () => {
    const a = await createAccount();
    await api('GET', '/api/user', { token: a.token });
    const res = await api('GET', '/api/v1/user', { token: a.token });
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('118');
  });

  it('sends no rate-limit headers on a 401, which counts against no token', async () => {
    const res = await api('GET', '/api/user', { token: 'tok_unknown' });
    expect(res.status).toBe(401);
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
  });
});
