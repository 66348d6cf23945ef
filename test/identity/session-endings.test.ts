import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { cookieFrom, getPage, givePassword, PASSWORD, postForm, sessionsOf } from './sign-in-fixtures';

const NEW_PASSWORD = 'another long enough password';

describe('logout', () => {
  it('deletes the session row, clears the cookie and sends to the sign-in page', async () => {
    const user = await createAccount();
    const session = await sessionFor(user);
    const res = await postForm('/logout', { csrf_token: session.csrfToken }, { headers: session.cookie });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?reason=signed_out');
    expect(res.setCookie).toMatch(/^_signing_service_session=;.*Max-Age=0/);
    expect(await sessionsOf(user.userId)).toEqual([]);
  });

  it('refuses a logout form without the session’s CSRF token and keeps the session', async () => {
    const user = await createAccount();
    const session = await sessionFor(user);
    const res = await postForm('/logout', { csrf_token: 'wrong' }, { headers: session.cookie });
    expect(res.status).toBe(403);
    expect((await sessionsOf(user.userId)).map((s) => s.id)).toEqual([session.sessionId]);
  });
});

describe('every session of a user ends', () => {
  it('when an admin raises their role', async () => {
    const admin = await createAccount();
    const member = await addUser(admin.accountId, 'viewer');
    await sessionFor(member);
    await sessionFor(member);
    const res = await api('PUT', `/api/users/${member.userId}`, { token: admin.token, body: { role: 'editor' } });
    expect(res.status).toBe(200);
    expect(res.json.role).toBe('editor');
    expect(await sessionsOf(member.userId)).toEqual([]);
  });

  it('but not when their name changes or their role is lowered', async () => {
    const admin = await createAccount();
    const member = await addUser(admin.accountId, 'editor');
    await sessionFor(member);
    await api('PUT', `/api/users/${member.userId}`, { token: admin.token, body: { name: 'Renamed', role: 'viewer' } });
    expect(await sessionsOf(member.userId)).toHaveLength(1);
  });

  it('when they are removed from the account', async () => {
    const admin = await createAccount();
    const member = await addUser(admin.accountId, 'editor');
    await sessionFor(member);
    const res = await api('DELETE', `/api/users/${member.userId}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await sessionsOf(member.userId)).toEqual([]);
  });
});

describe('changing the password at /settings/password', { timeout: 60_000 }, () => {
  it('shows a labelled form to a signed-in user', async () => {
    const user = await createAccount();
    const session = await sessionFor(user);
    const page = await getPage('/settings/password', session.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('autocomplete="current-password"');
    expect(page.text).toContain(`name="csrf_token" value="${session.csrfToken}"`);
  });

  it('ends the user’s other sessions and restarts this one with a fresh cookie', async () => {
    const user = await createAccount();
    await givePassword(user.userId);
    const other = await sessionFor(user);
    const current = await sessionFor(user);
    const res = await postForm(
      '/settings/password',
      { csrf_token: current.csrfToken, current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { headers: current.cookie },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings/password?changed=1');
    const left = await sessionsOf(user.userId);
    expect(left).toHaveLength(1);
    expect(left[0].id).not.toBe(other.sessionId);
    expect(left[0].id).not.toBe(current.sessionId);
    expect(cookieFrom(res).Cookie).not.toBe(current.cookie.Cookie);
    expect((await getPage('/api/user', cookieFrom(res))).status).toBe(200);
    expect((await getPage('/api/user', current.cookie)).status).toBe(401);
  });

  it('refuses a wrong current password with a sentence and changes nothing', async () => {
    const user = await createAccount();
    await givePassword(user.userId);
    const current = await sessionFor(user);
    const res = await postForm(
      '/settings/password',
      {
        csrf_token: current.csrfToken,
        current_password: 'not my password at all',
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
      { headers: current.cookie },
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain('The current password is wrong.');
    expect((await sessionsOf(user.userId)).map((s) => s.id)).toEqual([current.sessionId]);
  });

  it('refuses the form without the session’s CSRF token', async () => {
    const user = await createAccount();
    await givePassword(user.userId);
    const current = await sessionFor(user);
    const res = await postForm(
      '/settings/password',
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { headers: current.cookie },
    );
    expect(res.status).toBe(403);
    const row = await env.CONTROL_DB.prepare('SELECT password_changed_at FROM users WHERE id = ?').bind(user.userId).first();
    expect(row).toEqual({ password_changed_at: null });
  });
});
