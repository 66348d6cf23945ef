// OAuth access tokens on /api: the granted scopes, the user's role as the ceiling, expiry, revocation,
// the account's boundary and the audit trail (docs/oauth.md).
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { createTemplate } from '../submission-fixtures';
import { authorizeQuery, bearer, decide, oauthTokens, pkce, publicClient, REDIRECT_URI, request } from '../oauth-fixtures';

let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
  other = await createAccount();
});

describe('an OAuth bearer on /api', () => {
  it('reads templates with templates:read', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(200);
  });

  it('is refused a route needing a scope it was not granted', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await api('GET', '/api/submissions', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(403);
    expect(res.json.error).toContain('Insufficient scope');
  });

  it('is refused once expired, with a sentence naming the refresh token', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    await env.CONTROL_DB.prepare(
      "UPDATE oauth_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE kind = 'access' AND grant_id = (SELECT grant_id FROM oauth_tokens WHERE token_hash = ?)",
    )
      .bind(await sha256(tokens.access_token))
      .run();
    const res = await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('expired');
  });

  it('is refused once expired with a WWW-Authenticate Bearer invalid_token challenge (RFC 6750 §3)', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    await env.CONTROL_DB.prepare(
      "UPDATE oauth_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE kind = 'access' AND grant_id = (SELECT grant_id FROM oauth_tokens WHERE token_hash = ?)",
    )
      .bind(await sha256(tokens.access_token))
      .run();
    const res = await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('WWW-Authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="api", error="invalid_token", error_description="[^"]*expired[^"]*"$/);
    // RFC 6750 §3: error_description is printable ASCII without quotes or backslashes.
    expect(challenge).toMatch(/^[\x20-\x7e]+$/);
  });

  it('gets an invalid_token challenge for an unknown token and for one of the wrong shape', async () => {
    for (const token of ['oat_short', `oat_${'A'.repeat(40)}`]) {
      const res = await api('GET', '/api/templates', { token: null, headers: bearer(token) });
      expect(res.status).toBe(401);
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer realm="api", error="invalid_token", error_description="/);
    }
  });

  it('gets a bare Bearer challenge when no credential is presented', async () => {
    const res = await api('GET', '/api/templates', { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="api"');
  });

  it('gets an insufficient_scope challenge naming the scope it lacks', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await api('GET', '/api/submissions', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(403);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="api", error="insufficient_scope", scope="submissions:read"');
  });

  it('refuses a token of the wrong shape without looking it up', async () => {
    const res = await api('GET', '/api/templates', { token: null, headers: bearer('oat_short') });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('not valid');
  });

  it('sees its own account’s template', async () => {
    const { id } = await createTemplate(owner.token);
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await api('GET', `/api/templates/${id}`, { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(200);
  });

  it('cannot see another account’s template (404)', async () => {
    const { id } = await createTemplate(other.token);
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await api('GET', `/api/templates/${id}`, { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(404);
  });

  it('stops working when the user is removed from the account (DELETE /api/users/{id})', async () => {
    const member = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(member, 'templates:read');
    expect((await api('DELETE', `/api/users/${member.userId}`, { token: owner.token })).status).toBe(200);
    const res = await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('removed');
  });

  it('has its own per-minute rate limit, apart from the user’s API token', async () => {
    const member = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(member, 'users:read');
    const statuses: number[] = [];
    for (let i = 0; i < 121; i += 1)
      statuses.push((await api('GET', '/api/user', { token: null, headers: bearer(tokens.access_token) })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses[120]).toBe(429);
    expect((await api('GET', '/api/user', { token: member.token })).status).toBe(200);
  });

  it('records the application as the actor in the audit trail', async () => {
    const tokens = await oauthTokens(owner, 'account:write');
    const res = await api('PUT', '/api/settings/account', {
      token: null,
      headers: bearer(tokens.access_token),
      body: { timezone: 'Europe/Paris' },
    });
    expect(res.status).toBe(200);
    const row = await (await shardOf(owner.accountId))
      .prepare('SELECT actor, access_token_id FROM audit_events WHERE account_id = ? ORDER BY id DESC LIMIT 1')
      .bind(owner.accountId)
      .first();
    expect(row).toMatchObject({ actor: 'oauth:Agent Smith', access_token_id: null });
  });
});

describe('scopes bounded by the user’s role', () => {
  it('lists a viewer’s write scopes as not granted on the consent page', async () => {
    const viewer = await addUser(owner.accountId, 'viewer');
    const client = await publicClient();
    const session = await sessionFor(viewer);
    const { challenge } = await pkce();
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read templates:write',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: session.cookie },
    );
    expect(res.status).toBe(200);
    const refused = res.text.slice(res.text.indexOf('id="refused-scopes"'));
    expect(refused).toContain('templates:write');
  });

  it('grants a viewer only the read scopes it asked for', async () => {
    const viewer = await addUser(owner.accountId, 'viewer');
    const tokens = await oauthTokens(viewer, 'templates:read templates:write');
    expect(tokens.scope).toBe('templates:read');
  });

  it('never grants an editor account:write', async () => {
    const editor = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(editor, 'templates:write account:write');
    expect(tokens.scope).toBe('templates:write');
    const res = await api('PUT', '/api/settings/account', {
      token: null,
      headers: bearer(tokens.access_token),
      body: { timezone: 'Europe/Paris' },
    });
    expect(res.status).toBe(403);
  });

  it('answers invalid_scope when the role allows none of the requested scopes', async () => {
    const viewer = await addUser(owner.accountId, 'viewer');
    const client = await publicClient();
    const session = await sessionFor(viewer);
    const { challenge } = await pkce();
    const res = await decide(
      session,
      {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:write',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      'allow',
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_scope');
  });
});

async function sha256(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
