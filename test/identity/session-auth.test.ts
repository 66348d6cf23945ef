import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { idleSession, sessionFor } from '../session-fixtures';

let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
});

describe('the console session cookie on /api', () => {
  it('authenticates a read as the signed-in user', async () => {
    const session = await sessionFor(owner);
    const res = await api('GET', '/api/user', { token: null, headers: session.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: owner.userId });
  });

  it('refuses a change without the CSRF token, naming it', async () => {
    const session = await sessionFor(owner);
    const res = await api('PUT', '/api/settings/account', {
      token: null,
      headers: { ...session.cookie, Origin: 'https://api.test' },
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toContain('X-CSRF-Token');
  });

  it('refuses a change from another origin even with the CSRF token', async () => {
    const session = await sessionFor(owner);
    const res = await api('PUT', '/api/settings/account', {
      token: null,
      headers: { ...session.console, Origin: 'https://evil.example' },
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(403);
  });

  it('accepts a change from a console page and records the user in the audit trail', async () => {
    const session = await sessionFor(owner);
    const res = await api('PUT', '/api/settings/account', { token: null, headers: session.console, body: { timezone: 'Europe/Berlin' } });
    expect(res.status).toBe(200);
    const shard = await shardOf(owner.accountId);
    const row = await shard
      .prepare('SELECT actor, access_token_id FROM audit_events WHERE account_id = ? ORDER BY id DESC LIMIT 1')
      .bind(owner.accountId)
      .first();
    expect(row).toMatchObject({ actor: expect.stringMatching(/@example\.com$/), access_token_id: null });
  });

  it('refuses a session idle for 30 minutes and deletes it', async () => {
    const session = await sessionFor(owner);
    await idleSession(session.sessionId, 30 * 60 * 1000 + 1000);
    const res = await api('GET', '/api/user', { token: null, headers: session.cookie });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('30 minutes');
    const row = await env.CONTROL_DB.prepare('SELECT id FROM sessions WHERE id = ?').bind(session.sessionId).first();
    expect(row).toBeNull();
  });

  it('keeps a session alive that was idle for 29 minutes', async () => {
    const session = await sessionFor(owner);
    await idleSession(session.sessionId, 29 * 60 * 1000);
    const res = await api('GET', '/api/user', { token: null, headers: session.cookie });
    expect(res.status).toBe(200);
  });

  it('refuses a session still owing its second factor', async () => {
    const session = await sessionFor(owner, { stage: 'mfa' });
    const res = await api('GET', '/api/user', { token: null, headers: session.cookie });
    expect(res.status).toBe(401);
  });

  it('refuses everything to a user who must enrol MFA first', async () => {
    const strict = await createAccount();
    await env.CONTROL_DB.prepare('UPDATE accounts SET mfa_enforced = 1 WHERE id = ?').bind(strict.accountId).run();
    const session = await sessionFor(strict);
    const res = await api('GET', '/api/templates', { token: null, headers: session.cookie });
    expect(res.status).toBe(403);
    expect(res.json.error).toContain('two-factor');
  });

  it('applies the role: a viewer session cannot change anything', async () => {
    const viewer = await addUser(owner.accountId, 'viewer');
    const session = await sessionFor(viewer);
    const res = await api('POST', '/api/webhooks', { token: null, headers: session.console, body: { url: 'https://example.com/hook' } });
    expect(res.status).toBe(403);
  });

  it('refuses an unknown cookie value', async () => {
    const res = await api('GET', '/api/user', { token: null, headers: { Cookie: '_signing_service_session=' + 'A'.repeat(43) } });
    expect(res.status).toBe(401);
  });

  it('lets an API token win over a cookie when both are sent', async () => {
    const other = await createAccount();
    const session = await sessionFor(other);
    const res = await api('GET', '/api/user', { token: owner.token, headers: session.cookie });
    expect(res.json.id).toBe(owner.userId);
  });
});
