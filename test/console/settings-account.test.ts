// /settings/account: admins get the form that PUTs /api/settings/account, others read the values.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;

beforeAll(async () => {
  roles = await accountWithRoles({ name: '<script>alert("account")</script>' });
});

describe('/settings/account', () => {
  it('gives an admin the form that updates the account through the API', async () => {
    const res = await page('/settings/account', roles.admin.session.cookie);
    expect(apiForms(res.html)).toEqual(['PUT /api/settings/account']);
    expect(res.html).toMatch(/<label for="account-timezone">Time zone<\/label><input id="account-timezone" name="timezone"/);
    expect(res.html).toMatch(/id="account-mfa" name="mfa_enforced"/);
  });

  it('shows an editor the settings without a form', async () => {
    const res = await page('/settings/account', roles.editor.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<dt>Time zone</dt><dd>UTC</dd>');
  });

  it('shows a viewer the settings without a form', async () => {
    const res = await page('/settings/account', roles.viewer.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<dt>Two-factor authentication</dt><dd>Optional</dd>');
  });

  it('escapes the account name wherever it shows it', async () => {
    const res = await page('/settings/account', roles.admin.session.cookie);
    expect(res.html).not.toContain('<script>alert');
    expect(res.html).toContain('&lt;script&gt;alert(&quot;account&quot;)&lt;/script&gt;');
  });

  it('shows the values the form saved through the API', async () => {
    const saved = await api('PUT', '/api/settings/account', {
      token: null,
      headers: roles.admin.session.console,
      body: { timezone: 'Europe/Berlin', mfa_enforced: false },
    });
    expect(saved.status).toBe(200);
    const res = await page('/settings/account', roles.viewer.session.cookie);
    expect(res.html).toContain('<dd>Europe/Berlin</dd>');
  });

  it('gives an admin the embedding origins as a list field and shows others the saved origins', async () => {
    const other = await accountWithRoles();
    const saved = await api('PUT', '/api/settings/account', {
      token: null,
      headers: other.admin.session.console,
      body: { embed_origins: ['https://app.example.com', 'https://portal.example.org'] },
    });
    expect(saved.status).toBe(200);
    const admin = await page('/settings/account', other.admin.session.cookie);
    expect(admin.html).toMatch(
      /<textarea id="account-embed-origins" name="embed_origins" data-type="list"[^>]*>https:\/\/app.example.com\nhttps:\/\/portal.example.org<\/textarea>/,
    );
    const viewer = await page('/settings/account', other.viewer.session.cookie);
    expect(viewer.html).toContain('<dd>https://app.example.com, https://portal.example.org</dd>');
  });

  it('redirects a session whose account requires MFA it has not enrolled to enrolment', async () => {
    const other = await accountWithRoles();
    await env.CONTROL_DB.prepare('UPDATE accounts SET mfa_enforced = 1 WHERE id = ?').bind(other.admin.accountId).run();
    const res = await page('/settings/account', other.viewer.session.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/settings/mfa?next=${encodeURIComponent('/settings/account')}`);
  });
});
