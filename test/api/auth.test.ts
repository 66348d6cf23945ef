import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken } from '../helpers';

describe('authentication', () => {
  it('answers 401 with error, message and status when no token is sent', async () => {
    const res = await api('GET', '/api/user');
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'unauthorized', message: expect.stringContaining('X-Auth-Token'), status: 401 });
  });

  it('answers 401 for an empty X-Auth-Token header', async () => {
    const res = await api('GET', '/api/user', { headers: { 'X-Auth-Token': '' } });
    expect(res.status).toBe(401);
  });

  it('answers 401 for an unknown token', async () => {
    const res = await api('GET', '/api/user', { token: 'tok_doesnotexist000000000000000000000000000' });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The API token is not valid.');
  });

  it('accepts the token as Authorization: Bearer', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/user', { headers: { Authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(a.userId);
  });

  it('refuses a revoked token on the very next request', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'short-lived' } });
    expect(created.status).toBe(201);
    expect((await api('GET', '/api/user', { token: created.json.token })).status).toBe(200);
    const revoked = await api('POST', `/api/access_tokens/${created.json.id}/revoke`, { token: a.token });
    expect(revoked.status).toBe(200);
    const after = await api('GET', '/api/user', { token: created.json.token });
    expect(after.status).toBe(401);
    expect(after.json.message).toBe('The API token has been revoked.');
  });

  it('refuses an expired token', async () => {
    const a = await createAccount();
    const expired = await createToken(a.accountId, a.userId, [], { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const res = await api('GET', '/api/user', { token: expired });
    expect(res.status).toBe(401);
    expect(res.json.message).toMatch(/expired at/);
  });

  it('refuses partner keys on tenant routes', async () => {
    const res = await api('GET', '/api/user', { token: 'ptk_somepartnerkey' });
    expect(res.status).toBe(401);
    expect(res.json.message).toMatch(/Partner keys/);
  });

  it('refuses the token of a removed user', async () => {
    const a = await createAccount();
    await env.CONTROL_DB.prepare('UPDATE users SET archived_at = ? WHERE id = ?').bind(new Date().toISOString(), a.userId).run();
    expect((await api('GET', '/api/user', { token: a.token })).status).toBe(401);
  });
});

describe('allowed_ips', () => {
  async function tokenFor(allowed: string[]) {
    const a = await createAccount();
    return createToken(a.accountId, a.userId, [], { allowedIps: allowed });
  }

  it('admits a request from a listed IPv4 address', async () => {
    const token = await tokenFor(['203.0.113.9']);
    expect((await api('GET', '/api/user', { token, ip: '203.0.113.9' })).status).toBe(200);
  });

  it('refuses a request from an address outside the list with 403', async () => {
    const token = await tokenFor(['203.0.113.9']);
    const res = await api('GET', '/api/user', { token, ip: '203.0.113.10' });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Requests from 203.0.113.10 are not allowed for this API token.');
  });

  it('admits addresses inside an IPv4 CIDR range', async () => {
    const token = await tokenFor(['10.20.0.0/16']);
    expect((await api('GET', '/api/user', { token, ip: '10.20.255.1' })).status).toBe(200);
    expect((await api('GET', '/api/user', { token, ip: '10.21.0.1' })).status).toBe(403);
  });

  it('admits addresses inside an IPv6 CIDR range', async () => {
    const token = await tokenFor(['2001:db8:abcd::/48']);
    expect((await api('GET', '/api/user', { token, ip: '2001:db8:abcd:12::1' })).status).toBe(200);
    expect((await api('GET', '/api/user', { token, ip: '2001:db8:abce::1' })).status).toBe(403);
  });

  it('matches an IPv4-mapped IPv6 client address against an IPv4 entry', async () => {
    const token = await tokenFor(['192.0.2.0/24']);
    expect((await api('GET', '/api/user', { token, ip: '::ffff:192.0.2.44' })).status).toBe(200);
  });

  it('refuses when the platform reports no client address', async () => {
    const token = await tokenFor(['192.0.2.1']);
    const res = await api('GET', '/api/user', { token, headers: { 'CF-Connecting-IP': 'not-an-ip' } });
    expect(res.status).toBe(403);
  });
});

describe('last_used_at', () => {
  it('is set on first use and not rewritten by the next request within the interval', async () => {
    const a = await createAccount();
    const read = () =>
      env.CONTROL_DB.prepare('SELECT last_used_at FROM access_tokens WHERE account_id = ?')
        .bind(a.accountId)
        .first<{ last_used_at: string | null }>();
    expect((await read())!.last_used_at).toBeNull();
    await api('GET', '/api/user', { token: a.token });
    const first = (await read())!.last_used_at;
    expect(first).not.toBeNull();
    await api('GET', '/api/user', { token: a.token });
    expect((await read())!.last_used_at).toBe(first);
  });

  it('is refreshed once the stored value is older than a minute', async () => {
    const a = await createAccount();
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await env.CONTROL_DB.prepare('UPDATE access_tokens SET last_used_at = ? WHERE account_id = ?').bind(old, a.accountId).run();
    await api('GET', '/api/user', { token: a.token });
    const row = await env.CONTROL_DB.prepare('SELECT last_used_at FROM access_tokens WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ last_used_at: string }>();
    expect(row!.last_used_at > old).toBe(true);
  });
});

describe('scopes', () => {
  it('gives a token with no scopes access to every endpoint', async () => {
    const a = await createAccount({ scopes: [] });
    expect((await api('GET', '/api/users', { token: a.token })).status).toBe(200);
    expect((await api('GET', '/api/settings/account', { token: a.token })).status).toBe(200);
  });

  it('answers 403 naming the required scope for a token without it', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/users', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: 'Insufficient scope. Required: users:read' });
  });

  it('admits a token holding one of the route’s scopes', async () => {
    const a = await createAccount({ scopes: ['templates:read', 'users:read'] });
    expect((await api('GET', '/api/users', { token: a.token })).status).toBe(200);
  });
});
