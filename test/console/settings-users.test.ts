// /settings/users: everyone reads the list; admins invite, change roles and remove through the API.
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;

beforeAll(async () => {
  roles = await accountWithRoles();
});

describe('/settings/users', () => {
  it('lists every user with name, email, role and status', async () => {
    const res = await page('/settings/users', roles.viewer.session.cookie);
    const { email } = (await api('GET', `/api/users/${roles.editor.userId}`, { token: roles.admin.token })).json;
    expect(res.html).toContain(`<td>${email}</td><td>editor</td><td>Invited</td>`);
  });

  it('gives an admin the invite form and the role and remove forms of other users', async () => {
    const res = await page('/settings/users', roles.admin.session.cookie);
    const forms = apiForms(res.html);
    expect(forms).toContain('POST /api/users');
    expect(forms).toContain(`PUT /api/users/${roles.editor.userId}`);
    expect(forms).toContain(`DELETE /api/users/${roles.viewer.userId}`);
  });

  it('offers an admin no form that would change their own role or remove them', async () => {
    const res = await page('/settings/users', roles.admin.session.cookie);
    const forms = apiForms(res.html);
    expect(forms).not.toContain(`PUT /api/users/${roles.admin.userId}`);
    expect(forms).not.toContain(`DELETE /api/users/${roles.admin.userId}`);
  });

  it('shows an editor the list without any form', async () => {
    const res = await page('/settings/users', roles.editor.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).not.toContain('Invite a user');
  });

  it('shows a viewer the list without any form', async () => {
    const res = await page('/settings/users', roles.viewer.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
  });

  it('lists a user the invite form added through the API', async () => {
    const invited = await api('POST', '/api/users', {
      token: null,
      headers: roles.admin.session.console,
      body: { email: 'invitee@example.com', name: 'Ivy', role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const res = await page('/settings/users', roles.admin.session.cookie);
    expect(res.html).toContain('<th scope="row">Ivy</th><td>invitee@example.com</td><td>viewer</td>');
  });

  it('no longer lists a user the remove form took out', async () => {
    const gone = await api('POST', '/api/users', { token: roles.admin.token, body: { email: 'leaving@example.com', name: 'Leaving' } });
    const removed = await api('DELETE', `/api/users/${gone.json.id}`, { token: null, headers: roles.admin.session.console, body: {} });
    expect(removed.status).toBe(200);
    const res = await page('/settings/users', roles.admin.session.cookie);
    expect(res.html).not.toContain('leaving@example.com');
  });

  it('escapes a user name holding a script tag', async () => {
    await api('PUT', `/api/users/${roles.viewer.userId}`, { token: roles.admin.token, body: { name: '<script>alert(1)</script>' } });
    const res = await page('/settings/users', roles.admin.session.cookie);
    expect(res.html).not.toContain('<script>alert(1)');
    expect(res.html).toContain('<th scope="row">&lt;script&gt;alert(1)&lt;/script&gt;</th>');
  });
});
