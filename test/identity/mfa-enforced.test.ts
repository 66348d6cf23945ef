import { createExecutionContext, env } from 'cloudflare:test';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/app-env';
import { controlDatabase } from '../../src/middleware/databases';
import { consoleSession } from '../../src/middleware/console-session';
import { addUser, api, createAccount, type TestAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { enrol, getPage, postForm, secretOnPage, totpCode } from './mfa-fixtures';

let strict: TestAccount;

beforeAll(async () => {
  strict = await createAccount();
  await env.CONTROL_DB.prepare('UPDATE accounts SET mfa_enforced = 1 WHERE id = ?').bind(strict.accountId).run();
});

/** A console page other than enrolment, behind the ordinary guard. */
function otherConsolePage(cookie: Record<string, string>) {
  const app = new Hono<AppEnv>();
  app.use('*', controlDatabase());
  app.get('/settings/users', consoleSession(), (c) => c.text('users'));
  return app.request('https://api.test/settings/users', { headers: cookie }, env, createExecutionContext());
}

describe('an account with mfa_enforced', () => {
  it('sends a user without MFA from a console page to enrolment, keeping where they were going', async () => {
    const user = await addUser(strict.accountId, 'admin');
    const res = await otherConsolePage((await sessionFor(user)).cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/settings/mfa?next=%2Fsettings%2Fusers');
  });

  it('opens the enrolment page to them and says the account requires it', async () => {
    const user = await addUser(strict.accountId, 'admin');
    const page = await getPage('/settings/mfa?next=%2Fsettings%2Fusers', await sessionFor(user));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your account requires two-factor authentication');
    expect(page.text).toContain('name="next" value="/settings/users"');
  });

  it('returns them to where they were going after enrolment', async () => {
    const user = await addUser(strict.accountId, 'admin');
    const session = await sessionFor(user);
    const secret = secretOnPage((await getPage('/settings/mfa?next=%2Fsettings%2Fusers', session)).text);
    const res = await postForm('/settings/mfa/enable', session, { code: totpCode(secret), next: '/settings/users' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="/settings/users"');
    expect((await otherConsolePage(session.cookie)).status).toBe(200);
  });

  it('refuses their session on /api/templates with 403 until they enrol, then lets it through', async () => {
    const user = await addUser(strict.accountId, 'editor');
    const session = await sessionFor(user);
    const before = await api('GET', '/api/templates', { token: null, headers: session.cookie });
    expect(before.status).toBe(403);
    expect(before.json.error).toContain('two-factor');
    await enrol(session, user.userId);
    const after = await api('GET', '/api/templates', { token: null, headers: session.cookie });
    expect(after.status).toBe(200);
  });

  it('refuses an admin-only API call to an admin session that must enrol', async () => {
    const admin = await addUser(strict.accountId, 'admin');
    const session = await sessionFor(admin);
    const res = await api('PUT', '/api/settings/account', { token: null, headers: session.console, body: { name: 'Renamed' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toContain('two-factor');
  });
});

describe('turning mfa_enforced on (PUT /api/settings/account)', () => {
  let open: TestAccount;

  beforeAll(async () => {
    open = await createAccount();
  });

  it('refuses an admin who has no MFA themselves, with a sentence', async () => {
    const res = await api('PUT', '/api/settings/account', { token: open.token, body: { mfa_enforced: true } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('Turn on two-factor authentication for yourself');
    const row = await env.CONTROL_DB.prepare('SELECT mfa_enforced FROM accounts WHERE id = ?')
      .bind(open.accountId)
      .first<{ mfa_enforced: number }>();
    expect(row?.mfa_enforced).toBe(0);
  });

  it('lets an admin with MFA turn it on from the console', async () => {
    const admin = await addUser(open.accountId, 'admin');
    const session = await sessionFor(admin);
    await enrol(session, admin.userId);
    const res = await api('PUT', '/api/settings/account', { token: null, headers: session.console, body: { mfa_enforced: true } });
    expect(res.status).toBe(200);
    expect(res.json.account.mfa_enforced).toBe(true);
    await env.CONTROL_DB.prepare('UPDATE accounts SET mfa_enforced = 0 WHERE id = ?').bind(open.accountId).run();
  });

  it('lets an admin without MFA turn it off, or change other settings', async () => {
    const res = await api('PUT', '/api/settings/account', { token: open.token, body: { mfa_enforced: false, name: 'Still open' } });
    expect(res.status).toBe(200);
    expect(res.json.account).toMatchObject({ mfa_enforced: false, name: 'Still open' });
  });

  it('keeps a non-admin out as before (403)', async () => {
    const editor = await addUser(open.accountId, 'editor');
    const res = await api('PUT', '/api/settings/account', { token: editor.token, body: { mfa_enforced: true } });
    expect(res.status).toBe(403);
  });
});
