// The OAuth 2.1 authorization server end to end: discovery, registration, authorization with PKCE and
// consent, code exchange, refresh rotation, revocation (docs/oauth.md).
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, api, createAccount, type TestAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import {
  authorizedCode,
  authorizeQuery,
  bearer,
  decide,
  exchange,
  form,
  oauthTokens,
  pkce,
  publicClient,
  REDIRECT_URI,
  registerClient,
  request,
  tokenRequest,
} from '../oauth-fixtures';

let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
});

describe('discovery', () => {
  it('publishes the endpoints, the API scopes and S256 as the only PKCE method', async () => {
    const res = await request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: 'https://api.test',
      authorization_endpoint: 'https://api.test/oauth/authorize',
      token_endpoint: 'https://api.test/oauth/token',
      registration_endpoint: 'https://api.test/oauth/register',
      revocation_endpoint: 'https://api.test/oauth/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    });
    expect(res.json.scopes_supported).toContain('templates:read');
  });

  it('describes the OAuth flow as a security scheme in the OpenAPI document', async () => {
    const res = await request('GET', '/api/openapi.json');
    expect(res.json.components.securitySchemes.OAuth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: '/oauth/authorize',
          tokenUrl: '/oauth/token',
          scopes: expect.objectContaining({ 'templates:read': expect.any(String) }),
        },
      },
    });
  });
});

describe('cross-origin clients', () => {
  it('answers a CORS preflight of the token endpoint from any origin', async () => {
    const res = await request('OPTIONS', '/oauth/token', {
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('does not open the consent endpoint to other origins', async () => {
    const res = await request('OPTIONS', '/oauth/authorize', {
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('dynamic client registration', () => {
  it('registers a public client and answers 201 with its client_id and metadata', async () => {
    const res = await registerClient();
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      client_id: expect.stringMatching(/^oci_/),
      client_name: 'Agent Smith',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    });
    expect(res.json.client_secret).toBeUndefined();
  });

  it('gives a confidential client a secret', async () => {
    const res = await registerClient({ token_endpoint_auth_method: 'client_secret_basic', redirect_uris: ['https://agent.example/cb'] });
    expect(res.status).toBe(201);
    expect(res.json.client_secret).toMatch(/^ocs_/);
  });

  it('refuses an http redirect URI on a public host with invalid_redirect_uri', async () => {
    const res = await registerClient({ redirect_uris: ['http://agent.example/cb'] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_redirect_uri', error_description: expect.stringContaining('https') });
  });

  it('refuses a redirect URI with a fragment', async () => {
    const res = await registerClient({ redirect_uris: ['https://agent.example/cb#x'] });
    expect(res.json).toMatchObject({ error: 'invalid_redirect_uri', error_description: expect.stringContaining('fragment') });
  });

  it('refuses metadata without a client_name with invalid_client_metadata', async () => {
    const res = await registerClient({ client_name: undefined });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_client_metadata');
  });

  it('answers a body that is not JSON with invalid_client_metadata, not 500', async () => {
    const res = await request('POST', '/oauth/register', { headers: { 'Content-Type': 'application/json' }, body: '{nope' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_client_metadata');
  });

  it('limits registrations per address', async () => {
    const ip = '192.0.2.200';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await registerClient({}, ip)).status);
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('the authorization endpoint', () => {
  it('shows an error page and does not redirect for a redirect_uri that is not registered', async () => {
    const client = await publicClient();
    const { challenge } = await pkce();
    const session = await sessionFor(owner);
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/cb',
        scope: 'templates:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: session.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.text).toContain('does not exactly match');
    expect(res.headers.get('Content-Security-Policy')).toContain("form-action 'self';");
  });

  it('shows an error page for an unknown client_id', async () => {
    const res = await request('GET', authorizeQuery({ response_type: 'code', client_id: 'oci_nope', redirect_uri: REDIRECT_URI }));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });

  it('redirects with invalid_request when PKCE is missing', async () => {
    const client = await publicClient();
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        state: 's1',
      }),
    );
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('redirects with invalid_request for the plain PKCE method', async () => {
    const client = await publicClient();
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'plain',
      }),
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('redirects with invalid_scope for an unknown scope', async () => {
    const client = await publicClient();
    const { challenge } = await pkce();
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read everything',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('sends a visitor who is not signed in to /login and back', async () => {
    const client = await publicClient();
    const { challenge } = await pkce();
    const path = authorizeQuery({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'templates:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request('GET', path);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(path)}`);
  });

  it('shows a consent page with the user, the app name, the redirect host and each scope', async () => {
    const client = await publicClient({ client_name: 'Report Bot' });
    const { challenge } = await pkce();
    const session = await sessionFor(owner);
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read submissions:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: session.cookie },
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('Report Bot');
    expect(res.text).toContain('127.0.0.1:8976');
    expect(res.text).toMatch(/user\d+@example\.com/);
    expect(res.text).toContain('templates:read');
    expect(res.text).toContain('See submissions');
    expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  });

  it('lets the consent form lead to the client’s redirect origin and no other (CSP form-action)', async () => {
    const client = await publicClient();
    const { challenge } = await pkce();
    const session = await sessionFor(owner);
    const res = await request(
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: session.cookie },
    );
    const formAction = res.headers
      .get('Content-Security-Policy')!
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith('form-action'));
    expect(formAction).toBe("form-action 'self' http://127.0.0.1:8976");
  });

  it('answers Allow with a code and the state at the redirect URI', async () => {
    const client = await publicClient();
    const session = await sessionFor(owner);
    const { challenge } = await pkce();
    const res = await decide(
      session,
      {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        state: 'abc',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      'allow',
    );
    expect(res.status).toBe(303);
    const location = new URL(res.location!);
    expect(location.searchParams.get('code')).toMatch(/^oac_/);
    expect(location.searchParams.get('state')).toBe('abc');
    expect(location.searchParams.get('iss')).toBe('https://api.test');
  });

  it('answers Deny with access_denied', async () => {
    const client = await publicClient();
    const session = await sessionFor(owner);
    const { challenge } = await pkce();
    const res = await decide(
      session,
      {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      'deny',
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a consent post without the CSRF token', async () => {
    const client = await publicClient();
    const session = await sessionFor(owner);
    const { challenge } = await pkce();
    const res = await request('POST', '/oauth/authorize', {
      headers: { ...session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'templates:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        decision: 'allow',
      }),
    });
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
  });
});

describe('the token endpoint', () => {
  it('refuses a code with the wrong verifier with invalid_grant', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    const res = await exchange(flow, { code_verifier: (await pkce()).verifier });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('exchanges a code with the right verifier for a bearer token of one hour and a refresh token', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    const res = await exchange(flow);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      access_token: expect.stringMatching(/^oat_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^ort_/),
      scope: 'templates:read',
    });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('refuses a redirect_uri other than the code was issued for', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    const res = await exchange(flow, { redirect_uri: 'http://127.0.0.1:8976/other' });
    expect(res.json.error).toBe('invalid_grant');
  });

  it('refuses an expired code', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    await env.CONTROL_DB.prepare("UPDATE oauth_codes SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ? AND used_at IS NULL")
      .bind(owner.userId)
      .run();
    const res = await exchange(flow);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('refuses a code whose grant was revoked before the exchange', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    await env.CONTROL_DB.prepare(
      "UPDATE oauth_grants SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = (SELECT grant_id FROM oauth_codes WHERE used_at IS NULL AND user_id = ? ORDER BY id DESC LIMIT 1)",
    )
      .bind(owner.userId)
      .run();
    const res = await exchange(flow);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('revokes the tokens of a code that is used a second time', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    const first = await exchange(flow);
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(first.json.access_token) })).status).toBe(200);
    const second = await exchange(flow);
    expect(second.json.error).toBe('invalid_grant');
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(first.json.access_token) })).status).toBe(401);
  });

  it('lets exactly one of two concurrent exchanges of a code get tokens', async () => {
    const flow = await authorizedCode(owner, 'templates:read');
    const results = await Promise.all([exchange(flow), exchange(flow)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
  });

  it('refuses an unsupported grant type', async () => {
    const client = await publicClient();
    const res = await tokenRequest({ grant_type: 'password', client_id: client.client_id });
    expect(res.json.error).toBe('unsupported_grant_type');
  });

  it('refuses a JSON body with invalid_request', async () => {
    const res = await request('POST', '/oauth/token', { headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  });

  it('authenticates a confidential client with HTTP Basic and refuses a wrong secret', async () => {
    const client = (await registerClient({ token_endpoint_auth_method: 'client_secret_basic' })).json;
    const flow = await authorizedCode(owner, 'templates:read', client);
    const bad = await tokenRequest(
      { grant_type: 'authorization_code', code: flow.code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier },
      { Authorization: `Basic ${btoa(`${client.client_id}:ocs_wrong`)}` },
    );
    expect(bad.status).toBe(401);
    expect(bad.json.error).toBe('invalid_client');
    const good = await tokenRequest(
      { grant_type: 'authorization_code', code: flow.code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier },
      { Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}` },
    );
    expect(good.status).toBe(200);
  });

  it('refuses an address with 429 after 30 failed client authentications in a minute', async () => {
    const client = (await registerClient({ token_endpoint_auth_method: 'client_secret_post' })).json;
    const attempt = () =>
      request('POST', '/oauth/token', {
        ip: '192.0.2.77',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form({ grant_type: 'refresh_token', refresh_token: 'ort_x', client_id: client.client_id, client_secret: 'ocs_wrong' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('rotates the refresh token: the new pair works', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
    });
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(res.json.access_token) })).status).toBe(200);
  });

  it('revokes the grant when a used refresh token is presented again', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const rotated = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
    });
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
    const call = await api('GET', '/api/templates', { token: null, headers: bearer(rotated.json.access_token) });
    expect(call.status).toBe(401);
    expect(call.json.message).toContain('revoked');
    const again = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: rotated.json.refresh_token,
      client_id: tokens.client.client_id,
    });
    expect(again.json.error).toBe('invalid_grant');
  });

  it('lets exactly one of two concurrent refreshes of one token succeed', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const results = await Promise.all(
      [1, 2].map(() =>
        tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.client.client_id }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
  });

  it('refuses a refresh for a user who has been removed', async () => {
    const member = await addUser(owner.accountId, 'editor');
    const tokens = await oauthTokens(member, 'templates:read');
    await api('DELETE', `/api/users/${member.userId}`, { token: owner.token });
    const res = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
    });
    expect(res.json).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('removed') });
  });

  it('refuses a refresh that widens the scope and leaves the refresh token usable', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
      scope: 'templates:read templates:write',
    });
    expect(res.json.error).toBe('invalid_scope');
    const retry = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
    });
    expect(retry.status).toBe(200);
  });

  it('narrows the scope of a refresh when asked', async () => {
    const tokens = await oauthTokens(owner, 'templates:read submissions:read');
    const res = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.client_id,
      scope: 'templates:read',
    });
    expect(res.json.scope).toBe('templates:read');
    expect((await api('GET', '/api/submissions', { token: null, headers: bearer(res.json.access_token) })).status).toBe(403);
  });

  it('refuses a refresh token presented by another client', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const other = await publicClient();
    const res = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: other.client_id });
    expect(res.json.error).toBe('invalid_grant');
  });
});

describe('revocation', () => {
  it('answers 200 for an unknown token', async () => {
    const client = await publicClient();
    const res = await request('POST', '/oauth/revoke', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ token: 'oat_unknown', client_id: client.client_id }),
    });
    expect(res.status).toBe(200);
  });

  it('makes a revoked access token answer 401 on /api', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    const res = await request('POST', '/oauth/revoke', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ token: tokens.access_token, token_type_hint: 'access_token', client_id: tokens.client.client_id }),
    });
    expect(res.status).toBe(200);
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) })).status).toBe(401);
  });

  it('revokes the whole grant with its refresh token', async () => {
    const tokens = await oauthTokens(owner, 'templates:read');
    await request('POST', '/oauth/revoke', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ token: tokens.refresh_token, client_id: tokens.client.client_id }),
    });
    expect((await api('GET', '/api/templates', { token: null, headers: bearer(tokens.access_token) })).status).toBe(401);
  });
});
