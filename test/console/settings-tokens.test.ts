// /settings/tokens: the user's tokens (admins: the account's); editors and admins create and revoke
// through the API, viewers only read.
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;

beforeAll(async () => {
  roles = await accountWithRoles();
});

/** The JSON the create form sends: checked scopes, the IP list, the expiry as an ISO instant. */
function consoleTokenBody(name: string) {
  return {
    name,
    scopes: ['templates:read', 'account:read'],
    allowed_ips: ['198.51.100.0/24'],
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  };
}

describe('/settings/tokens', () => {
  it('gives an editor the create form with a checkbox per scope', async () => {
    const res = await page('/settings/tokens', roles.editor.session.cookie);
    expect(apiForms(res.html)).toContain('POST /api/access_tokens');
    expect(res.html).toContain('name="scopes" value="submissions:send" data-type="list"');
    expect(res.html).toContain('<label for="token-expiry">Expires</label>');
  });

  it('gives a viewer neither the create form nor revoke buttons', async () => {
    const res = await page('/settings/tokens', roles.viewer.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<h2 id="tokens-heading">Your tokens</h2>');
  });

  it('creates a working token from the create form’s request, shown once', async () => {
    const created = await api('POST', '/api/access_tokens', {
      token: null,
      headers: roles.editor.session.console,
      body: consoleTokenBody('From the console'),
    });
    expect(created.status).toBe(201);
    expect(created.json.token).toMatch(/^tok_/);
    const used = await api('GET', '/api/settings/account', { token: created.json.token, ip: '198.51.100.20' });
    expect(used.status).toBe(200);
    expect(used.json.account.id).toBe(roles.editor.accountId);
    const res = await page('/settings/tokens', roles.editor.session.cookie);
    expect(res.html).toContain('<th scope="row">From the console</th>');
    expect(res.html).toContain('<td>templates:read, account:read</td><td>198.51.100.0/24</td>');
    expect(res.html).not.toContain(created.json.token);
  });

  it('shows an editor only their own tokens', async () => {
    await api('POST', '/api/access_tokens', { token: roles.admin.token, body: { name: 'Admin only' } });
    const res = await page('/settings/tokens', roles.editor.session.cookie);
    expect(res.html).not.toContain('Admin only');
  });

  it('shows an admin every token of the account with its owner', async () => {
    await api('POST', '/api/access_tokens', { token: null, headers: roles.editor.session.console, body: { name: 'Editor made' } });
    const res = await page('/settings/tokens', roles.admin.session.cookie);
    const { email } = (await api('GET', `/api/users/${roles.editor.userId}`, { token: roles.admin.token })).json;
    expect(res.html).toMatch(new RegExp(`<th scope="row">Editor made</th><td>${email.replace('.', '\\.')}</td>`));
  });

  it('offers a revoke button for an active token and none once it is revoked', async () => {
    const created = await api('POST', '/api/access_tokens', {
      token: null,
      headers: roles.editor.session.console,
      body: { name: 'To revoke' },
    });
    const before = await page('/settings/tokens', roles.editor.session.cookie);
    expect(apiForms(before.html)).toContain(`POST /api/access_tokens/${created.json.id}/revoke`);
    const revoked = await api('POST', `/api/access_tokens/${created.json.id}/revoke`, {
      token: null,
      headers: roles.editor.session.console,
      body: {},
    });
    expect(revoked.status).toBe(200);
    const after = await page('/settings/tokens', roles.editor.session.cookie);
    expect(apiForms(after.html)).not.toContain(`POST /api/access_tokens/${created.json.id}/revoke`);
    expect(after.html).toMatch(/<th scope="row">To revoke<\/th>.*?<td>Revoked<\/td>/);
  });

  it('escapes a token name holding a script tag', async () => {
    await api('POST', '/api/access_tokens', {
      token: null,
      headers: roles.editor.session.console,
      body: { name: '<script>alert(2)</script>' },
    });
    const res = await page('/settings/tokens', roles.editor.session.cookie);
    expect(res.html).not.toContain('<script>alert(2)');
    expect(res.html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });
});
