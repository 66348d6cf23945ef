import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';

describe('GET /api/user', () => {
  it('returns the token owner with its account', async () => {
    const a = await createAccount({ name: 'Acme' });
    const res = await api('GET', '/api/user', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: a.userId,
      account_id: a.accountId,
      role: 'admin',
      account: { id: a.accountId, name: 'Acme', plan: 'pro' },
    });
  });

  it('answers 403 without users:read', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    expect((await api('GET', '/api/user', { token: a.token })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/user')).status).toBe(401);
  });
});

describe('GET /api/users', () => {
  it('pages through users newest first with next and prev cursors', async () => {
    const a = await createAccount();
    const members = [];
    for (const role of ['editor', 'viewer', 'editor', 'viewer']) members.push(await addUser(a.accountId, role));
    const ids = [...members.map((m) => m.userId).reverse(), a.userId];

    const first = await api('GET', '/api/users?limit=2', { token: a.token });
    expect(first.json.data.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 2));
    expect(first.json.pagination).toEqual({ count: 2, next: ids[1], prev: null });

    const second = await api('GET', `/api/users?limit=2&after=${first.json.pagination.next}`, { token: a.token });
    expect(second.json.data.map((u: { id: number }) => u.id)).toEqual(ids.slice(2, 4));
    expect(second.json.pagination).toEqual({ count: 2, next: ids[3], prev: ids[2] });

    const last = await api('GET', `/api/users?limit=2&after=${second.json.pagination.next}`, { token: a.token });
    expect(last.json.data.map((u: { id: number }) => u.id)).toEqual(ids.slice(4));
    expect(last.json.pagination).toEqual({ count: 1, next: null, prev: ids[4] });

    const back = await api('GET', `/api/users?limit=2&before=${second.json.pagination.prev}`, { token: a.token });
    expect(back.json.data.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 2));
    expect(back.json.pagination).toEqual({ count: 2, next: ids[1], prev: null });
  });

  it('answers 400 when after and before are both given', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/users?after=5&before=2', { token: a.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('Pass only one of after and before.');
  });

  it('answers 400 for a limit that is not a number', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/users?limit=ten', { token: a.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('limit must be an integer.');
  });

  it('answers 422 for limit 0', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/users?limit=0', { token: a.token });
    expect(res.status).toBe(422);
  });

  it('never lists another account’s users', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const res = await api('GET', '/api/users', { token: a.token });
    expect(res.json.data.map((u: { id: number }) => u.id)).not.toContain(b.userId);
  });

  it('answers 403 without users:read', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    expect((await api('GET', '/api/users', { token: a.token })).status).toBe(403);
  });
});

describe('GET /api/users/{id}', () => {
  it('returns a user of the account', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'viewer');
    const res = await api('GET', `/api/users/${member.userId}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: member.userId, role: 'viewer', account_id: a.accountId, archived_at: null });
  });

  it('answers 404 for another account’s user', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const res = await api('GET', `/api/users/${b.userId}`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('User not found.');
  });

  it('answers 400 for an id that is not a number', async () => {
    const a = await createAccount();
    expect((await api('GET', '/api/users/abc', { token: a.token })).status).toBe(400);
  });
});

describe('POST /api/users', () => {
  it('lets an admin add a team member', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/users', {
      token: a.token,
      body: { email: ' New@Example.com ', name: 'New Person', role: 'viewer' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ email: 'New@Example.com', name: 'New Person', role: 'viewer', account_id: a.accountId });
  });

  it('refuses a duplicate email, case-insensitively', async () => {
    const a = await createAccount();
    await api('POST', '/api/users', { token: a.token, body: { email: 'dup@example.com' } });
    const res = await api('POST', '/api/users', { token: a.token, body: { email: 'DUP@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('A user with the email DUP@example.com already exists in this account.');
  });

  it('refuses an invalid email and an unknown role with a sentence each', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/users', { token: a.token, body: { email: 'not-an-email', role: 'owner' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual(['email must be a valid email address.', 'role must be one of: admin, editor, viewer.']);
  });

  it('refuses a non-admin with 403', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const res = await api('POST', '/api/users', { token: editor.token, body: { email: 'x@example.com' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Only account admins can perform this operation.');
  });

  it('answers 403 without account:write', async () => {
    const a = await createAccount({ scopes: ['users:read'] });
    expect((await api('POST', '/api/users', { token: a.token, body: { email: 'x@example.com' } })).status).toBe(403);
  });
});

describe('PUT /api/users/{id}', () => {
  it('changes a member’s role', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'viewer');
    const res = await api('PUT', `/api/users/${member.userId}`, { token: a.token, body: { role: 'editor' } });
    expect(res.status).toBe(200);
    expect(res.json.role).toBe('editor');
  });

  it('refuses an admin demoting themselves', async () => {
    const a = await createAccount();
    const res = await api('PUT', `/api/users/${a.userId}`, { token: a.token, body: { role: 'viewer' } });
    expect(res.status).toBe(422);
  });

  it('answers 404 for another account’s user', async () => {
    const a = await createAccount();
    const b = await createAccount();
    expect((await api('PUT', `/api/users/${b.userId}`, { token: a.token, body: { name: 'x' } })).status).toBe(404);
  });

  it('answers 422 for a name over 255 characters', async () => {
    const a = await createAccount();
    const res = await api('PUT', `/api/users/${a.userId}`, { token: a.token, body: { name: 'x'.repeat(256) } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name must be at most 255 characters.');
  });
});

describe('DELETE /api/users/{id}', () => {
  it('removes a member, whose tokens then stop working', async () => {
    const a = await createAccount();
    const member = await addUser(a.accountId, 'editor');
    const res = await api('DELETE', `/api/users/${member.userId}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.archived_at).toEqual(expect.any(String));
    expect((await api('GET', '/api/user', { token: member.token })).status).toBe(401);
  });

  it('refuses removing yourself', async () => {
    const a = await createAccount();
    expect((await api('DELETE', `/api/users/${a.userId}`, { token: a.token })).status).toBe(422);
  });

  it('answers 404 for another account’s user', async () => {
    const a = await createAccount();
    const b = await createAccount();
    expect((await api('DELETE', `/api/users/${b.userId}`, { token: a.token })).status).toBe(404);
  });
});

describe('roles', () => {
  it('keeps viewers read-only', async () => {
    const a = await createAccount();
    const viewer = await addUser(a.accountId, 'viewer');
    expect((await api('GET', '/api/users', { token: viewer.token })).status).toBe(200);
    const res = await api('POST', '/api/access_tokens', { token: viewer.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/read-only/);
  });
});

describe('POST /api/users under concurrency', () => {
  it('creates one user when the same email is added twice at once, answering 422 to the other', async () => {
    const a = await createAccount();
    const results = await Promise.all(
      [1, 2, 3].map(() => api('POST', '/api/users', { token: a.token, body: { email: 'race@example.com' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422]);
  });
});
