import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';

describe('POST /api/access_tokens', () => {
  it('returns the full token once, with its prefix, scopes and IPs', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', {
      token: a.token,
      body: {
        name: 'CRM',
        scopes: ['templates:read', 'submissions:read'],
        allowed_ips: ['203.0.113.0/24', '2001:DB8::1'],
        expires_at: '2099-01-01T00:00:00Z',
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'CRM',
      user_id: a.userId,
      scopes: ['templates:read', 'submissions:read'],
      allowed_ips: ['203.0.113.0/24', '2001:db8::1'],
      expired: false,
      expires_at: '2099-01-01T00:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
    });
    expect(res.json.token).toMatch(/^tok_[0-9A-Za-z]{40}$/);
    expect(res.json.token.startsWith(res.json.token_prefix)).toBe(true);
  });

  it('stores only a hash of the token', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'x' } });
    const rows = await env.CONTROL_DB.prepare('SELECT * FROM access_tokens WHERE id = ?').bind(res.json.id).all();
    expect(JSON.stringify(rows.results)).not.toContain(res.json.token);
  });

  it('issues a token that works with exactly its scopes', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'reader', scopes: ['users:read'] } });
    expect((await api('GET', '/api/users', { token: res.json.token })).status).toBe(200);
    expect((await api('GET', '/api/settings/account', { token: res.json.token })).status).toBe(403);
  });

  it('rejects unknown scopes, malformed IPs and a past expiry with one sentence each', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', {
      token: a.token,
      body: {
        name: 'bad',
        scopes: ['templates:read', 'everything'],
        allowed_ips: ['300.1.1.1', '10.0.0.0/33'],
        expires_at: '2001-01-01T00:00:00Z',
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      expect.stringMatching(/^Unknown scope "everything"; valid scopes are templates:read/),
      'allowed_ips: "300.1.1.1" is not a valid IPv4 or IPv6 address.',
      'allowed_ips: "10.0.0.0/33" is not a valid CIDR range (expected e.g. 203.0.113.0/24 or 2001:db8::/32).',
      'expires_at must be in the future.',
    ]);
  });

  it('rejects a blank name with a sentence naming the field', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: '  ' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe("name can't be blank.");
  });

  it('rejects an expires_at that is not a date-time', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'x', expires_at: 'tomorrow' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^expires_at must be an ISO 8601 date-time/);
  });

  it('answers 400 when name is missing', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('name is required.');
  });

  it('answers 400 for malformed JSON', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('Malformed JSON in request body');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', {
      token: a.token,
      body: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/Content-Type: application\/json/);
  });

  it('answers 400 for a wrongly typed field', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'x', scopes: 'templates:read' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('scopes must be an array.');
  });

  it('answers 403 without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/access_tokens', { body: { name: 'x' } })).status).toBe(401);
  });

  it('lets an admin mint a token for another user of the account', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'editor');
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'for member', user_id: member.userId } });
    expect(res.status).toBe(201);
    expect(res.json.user_id).toBe(member.userId);
  });

  it('refuses a non-admin minting a token for someone else', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'editor');
    const res = await api('POST', '/api/access_tokens', { token: member.token, body: { name: 'x', user_id: a.userId } });
    expect(res.status).toBe(403);
  });

  it('refuses a user_id from another account with 422', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'x', user_id: b.userId } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`user_id ${b.userId} is not a user of this account.`);
  });

  it('refuses a second token on the free plan with 403 and upgrade_url', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'second' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/free plan allows 1 active API token/);
    expect(res.json.upgrade_url).toBe('https://api.test/settings/billing');
  });
});

describe('GET /api/access_tokens', () => {
  it('lists tokens newest first with prefixes and never the token', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'second' } });
    const res = await api('GET', '/api/access_tokens', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((t: { name: string }) => t.name)).toEqual(['second', 'test']);
    expect(res.json.pagination).toEqual({ count: 2, next: null, prev: null });
    for (const t of res.json.data) {
      expect(t).not.toHaveProperty('token');
      expect(t.token_prefix).toMatch(/^tok_/);
    }
    expect(res.text).not.toContain(created.json.token);
  });

  it('shows a non-admin only their own tokens', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'editor');
    const res = await api('GET', '/api/access_tokens', { token: member.token });
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0].user_id).toBe(member.userId);
  });

  it('answers 403 without account:read', async () => {
    const a = await createAccount({ scopes: ['users:read'] });
    expect((await api('GET', '/api/access_tokens', { token: a.token })).status).toBe(403);
  });

  it('answers 422 for a limit above 100', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/access_tokens?limit=101', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('limit must be between 1 and 100.');
  });
});

describe('GET /api/access_tokens/{id} and revoke', () => {
  it('returns one token', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'one' } });
    const res = await api('GET', `/api/access_tokens/${created.json.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: created.json.id, name: 'one', expired: false });
    expect(res.json).not.toHaveProperty('token');
  });

  it('revokes a token and reports it expired, keeping the first revocation time', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'one' } });
    const first = await api('POST', `/api/access_tokens/${created.json.id}/revoke`, { token: a.token });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ expired: true, revoked_at: expect.any(String) });
    const second = await api('POST', `/api/access_tokens/${created.json.id}/revoke`, { token: a.token });
    expect(second.json.revoked_at).toBe(first.json.revoked_at);
  });

  it('hides another user’s token from a non-admin', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'editor');
    const adminTokenId = (await api('GET', '/api/access_tokens', { token: a.token })).json.data.find(
      (t: { user_id: number }) => t.user_id === a.userId,
    ).id;
    expect((await api('GET', `/api/access_tokens/${adminTokenId}`, { token: member.token })).status).toBe(404);
    expect((await api('POST', `/api/access_tokens/${adminTokenId}/revoke`, { token: member.token })).status).toBe(404);
  });

  it('answers 404 for a token id that does not exist', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/access_tokens/999999', { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Access token not found.');
  });

  it('answers 422 for an id that is not an integer', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/access_tokens/-3', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('id must be a positive integer id.');
  });

  it('answers 403 for revoke without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    expect((await api('POST', '/api/access_tokens/1/revoke', { token: a.token })).status).toBe(403);
  });
});
