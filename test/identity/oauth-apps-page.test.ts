// /settings/apps: a user's authorized OAuth apps (revoke) and the admin's OAuth clients (register, delete).
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, api, createAccount, type TestAccount } from '../helpers';
import { sessionFor, type TestSession } from '../session-fixtures';
import { authorizeQuery, bearer, form, oauthTokens, pkce, REDIRECT_URI, request } from '../oauth-fixtures';

let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
});

function post(session: TestSession, path: string, values: Record<string, string>) {
  return request('POST', path, {
    headers: { ...session.cookie, Origin: 'https://api.test', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form({ ...values, csrf_token: session.csrfToken }),
  });
}

function grantIdIn(html: string): string {
  const match = html.match(/\/settings\/apps\/grants\/(\d+)\/revoke/);
  if (!match) throw new Error('no grant on the page');
  return match[1];
}

async function registerOnPage(session: TestSession, name: string, method = 'client_secret_basic') {
  return post(session, '/settings/apps/clients', { name, redirect_uris: REDIRECT_URI, token_endpoint_auth_method: method });
}

describe('authorized apps', () => {
  it('lists an app the user authorized with its scopes', async () => {
    const member = await addUser(owner.accountId, 'editor');
    await oauthTokens(member, 'templates:read');
    const page = await request('GET', '/settings/apps', { headers: (await sessionFor(member)).cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Agent Smith');
    expect(page.text).toContain('templates:read');
  });

  it('revokes an app: its bearer answers 401 at once', async () => {
    const member = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(member, 'templates:read');
    const session = await sessionFor(member);
    const page = await request('GET', '/settings/apps', { headers: session.cookie });
    const res = await post(session, `/settings/apps/grants/${grantIdIn(page.text)}/revoke`, {});
    expect(res.status).toBe(303);
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) })).status).toBe(401);
  });

  it('answers 404 when revoking another user’s app', async () => {
    const member = await addUser(owner.accountId, 'editor');
    await oauthTokens(member, 'templates:read');
    const page = await request('GET', '/settings/apps', { headers: (await sessionFor(member)).cookie });
    const res = await post(await sessionFor(owner), `/settings/apps/grants/${grantIdIn(page.text)}/revoke`, {});
    expect(res.status).toBe(404);
  });

  it('refuses a revoke without the CSRF token', async () => {
    const member = await addUser(owner.accountId, 'editor');
    await oauthTokens(member, 'templates:read');
    const session = await sessionFor(member);
    const page = await request('GET', '/settings/apps', { headers: session.cookie });
    const res = await request('POST', `/settings/apps/grants/${grantIdIn(page.text)}/revoke`, {
      headers: { ...session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(res.status).toBe(403);
  });
});

describe('OAuth clients registered by an admin', () => {
  it('shows a new client’s id and secret once', async () => {
    const session = await sessionFor(owner);
    const res = await registerOnPage(session, 'Internal Agent');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/oci_[0-9A-Za-z]{40}/);
    expect(res.text).toMatch(/ocs_[0-9A-Za-z]{40}/);
    const again = await request('GET', '/settings/apps', { headers: session.cookie });
    expect(again.text).toContain('Internal Agent');
    expect(again.text).not.toMatch(/ocs_[0-9A-Za-z]{40}/);
  });

  it('explains an invalid redirect URI with 422', async () => {
    const res = await post(await sessionFor(owner), '/settings/apps/clients', { name: 'Bad', redirect_uris: 'http://agent.example/cb' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('must use https');
  });

  it('hides the client list from non-admins and refuses their registrations', async () => {
    const editor = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(editor);
    const page = await request('GET', '/settings/apps', { headers: session.cookie });
    expect(page.text).not.toContain('Register a client');
    expect((await registerOnPage(session, 'Sneaky')).status).toBe(403);
  });

  it('deleting a client revokes the access it was given', async () => {
    const session = await sessionFor(owner);
    const created = await registerOnPage(session, 'Short Lived', 'none');
    const clientId = created.text.match(/oci_[0-9A-Za-z]{40}/)![0];
    const id = created.text.match(/\/settings\/apps\/clients\/(\d+)\/delete/)![1];
    const member = await addUser(owner.accountId, 'editor');
    const { challenge, verifier } = await pkce();
    const memberSession = await sessionFor(member);
    const allow = await post(memberSession, '/oauth/authorize', {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'templates:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      decision: 'allow',
    });
    const code = new URL(allow.location!).searchParams.get('code')!;
    const tokens = await request('POST', '/oauth/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier }),
    });
    expect(tokens.status).toBe(200);
    expect((await post(session, `/settings/apps/clients/${id}/delete`, {})).status).toBe(303);
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(tokens.json.access_token) })).status).toBe(401);
  });

  it('does not let another account’s user authorize an admin-registered client', async () => {
    const session = await sessionFor(owner);
    const created = await registerOnPage(session, 'Private Agent', 'none');
    const clientId = created.text.match(/oci_[0-9A-Za-z]{40}/)![0];
    const stranger = await createAccount();
    const { challenge } = await pkce();
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      {
        headers: (await sessionFor(stranger)).cookie,
      },
    );
    expect(res.status).toBe(403);
    expect(res.text).toContain('another account');
  });
});

describe('last use of an authorized app', () => {
  it('shows when the app last called the API', async () => {
    const member = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(member, 'templates:read');
    const session = await sessionFor(member);
    expect((await request('GET', '/settings/apps', { headers: session.cookie })).text).toContain('never');
    await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) });
    // `last_used_at` is written after the response (waitUntil): wait for it briefly.
    let page = (await request('GET', '/settings/apps', { headers: session.cookie })).text;
    for (let attempt = 0; attempt < 20 && page.includes('never'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = (await request('GET', '/settings/apps', { headers: session.cookie })).text;
    }
    expect(page).not.toContain('never');
  });
});
