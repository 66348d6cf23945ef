// Console identity in a real browser (issue 16 bars): the dev admin chooses a password from setup's link
// and signs in; enrols TOTP and signs in with a code, then with a backup code that works only once;
// `mfa_enforced` keeps a new admin out of /settings/users until they enrol; an idle session is refused;
// a local OAuth client goes through register → authorize (PKCE S256, consent) → token → API → refresh →
// revoke; and axe-core finds nothing serious or critical on any console page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import * as OTPAuth from 'otpauth';
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sqlOn, startDevServer, type DevServer } from './wrangler-dev';
import { startOAuthCallback, type OAuthCallback } from './oauth-callback';
import { apiOf, fetchRetried, launchChromium, outboxLink, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_IDENTITY_PORT ?? 8795);
const ADMIN = 'admin@example.com';
const ADMIN_PASSWORD = 'correct horse battery staple';
const SECOND = 'second.admin@e2e.test';
const SECOND_PASSWORD = 'another long passphrase 42';
const IDLE_SENTENCE = 'Your session ended after 30 minutes without activity; sign in again.';

let server: DevServer;
let browser: Browser;
let admin: Page;
let adminSecret = '';
let backupCodes: string[] = [];
let second: BrowserContext;

// Its own server: it starts from the dev admin without a password and enforces MFA on the account.
const { call } = apiOf(() => server);

async function form(path: string, fields: Record<string, string>) {
  const res = await fetchRetried(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as any };
}

/** The code of the time step `steps` away from now (a step, once accepted, never is again). */
function totp(secret: string, steps = 0): string {
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return generator.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** The invitation link a user was emailed (the outbox is written after the response: poll a little). */
async function invitationLink(email: string): Promise<string> {
  const link = await outboxLink(server.base, email, 'password_invite', /https?:\/\/\S+\/password\/set\?token=[0-9A-Za-z]+/, {
    waitMs: 10_000,
  });
  if (!link) throw new Error(`no invitation email to ${email}`);
  return link;
}

/** `set_password_url` of `npm run setup` run again on the server's state (its config file untouched). */
function setupAgain(): string | null {
  const args = [
    join(import.meta.dirname, '..', '..', 'scripts', 'setup.mjs'),
    '--json',
    '--config',
    server.config,
    '--persist-to',
    server.dir,
    '--base-url',
    server.base,
  ];
  const result = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  if (result.status !== 0) throw new Error(`setup.mjs failed:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!).set_password_url;
}

const path = (page: Page) => new URL(page.url()).pathname;

async function choosePassword(page: Page, link: string, password: string) {
  await page.goto(link);
  await page.fill('#password', password);
  await page.fill('#password_confirmation', password);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/login\?reason=password_set/);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${server.base}/login`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await page.waitForLoadState();
}

async function enterCode(page: Page, code: string) {
  await page.fill('#code', code);
  await page.click('form[action="/login/mfa"] button[type=submit]');
  await page.waitForLoadState();
}

async function signOut(page: Page) {
  await page.click('form[action="/logout"] button');
  await page.waitForURL(/\/login\?reason=signed_out/);
}

/** Enrols TOTP on /settings/mfa from the secret shown on the page; returns the secret and the backup codes. */
async function enrol(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.goto(`${server.base}/settings/mfa`);
  const secret = (await page.getAttribute('code.secret', 'data-secret'))!;
  await page.fill('#enrol-code', totp(secret));
  await page.click('form[action="/settings/mfa/enable"] button[type=submit]');
  await page.waitForSelector('.backup-codes code');
  const codes = await page.locator('.backup-codes code').allTextContents();
  return { secret, codes: codes.map((c) => c.trim()) };
}

// The OAuth client's redirect target: a local HTTP server handing each callback's query to the test.
let callback: OAuthCallback;
let redirectUri = '';
const nextCallback = () => callback.next();

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizeUrl(clientId: string, params: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'templates:read',
    state: 'st-1',
    ...params,
  });
  return `${server.base}/oauth/authorize?${query}`;
}

async function register(name: string): Promise<string> {
  const res = await call(
    'POST',
    '/oauth/register',
    { client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
    {},
  );
  expect(res.status).toBe(201);
  return res.json.client_id;
}

/** Authorizes in the browser (consent: Allow) and returns the code the local client received. */
async function authorize(page: Page, clientId: string, challenge: string): Promise<string> {
  const received = nextCallback();
  await page.goto(authorizeUrl(clientId, { code_challenge: challenge, code_challenge_method: 'S256' }));
  await page.click('button[name=decision][value=allow]');
  const query = await received;
  expect(query.get('state')).toBe('st-1');
  return query.get('code')!;
}

describe('console identity in a real browser', () => {
  beforeAll(async () => {
    callback = await startOAuthCallback();
    redirectUri = callback.redirectUri;
    server = await startDevServer(PORT, { from: await preparedSetup() });
    browser = await launchChromium();
    admin = await (await browser.newContext()).newPage();
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
    callback?.close();
  });

  it('running setup again prints the same set-password link while it is unused', () => {
    expect(server.setPasswordUrl).toMatch(new RegExp(`^${server.base}/password/set\\?token=[0-9A-Za-z]{43}$`));
    expect(setupAgain()).toBe(server.setPasswordUrl);
  });

  it('the dev admin chooses a password from the link setup printed and signs in', async () => {
    await choosePassword(admin, server.setPasswordUrl!, ADMIN_PASSWORD);
    await signIn(admin, ADMIN, ADMIN_PASSWORD);
    expect(path(admin)).toBe('/settings/account');
  });

  it('once the dev admin has a password, setup prints no link', () => {
    expect(setupAgain()).toBeNull();
  });

  it('enrolling TOTP with a code computed from the secret on the page shows 8 backup codes', async () => {
    ({ secret: adminSecret, codes: backupCodes } = await enrol(admin));
    expect(backupCodes).toHaveLength(8);
    await admin.click('text=I have saved them, continue');
    await signOut(admin);
  });

  it('signing in asks for the second factor and accepts a TOTP code', async () => {
    await signIn(admin, ADMIN, ADMIN_PASSWORD);
    expect(path(admin)).toBe('/login/mfa');
    // The enrolment used this step; the next one is inside the accepted window.
    await enterCode(admin, totp(adminSecret, 1));
    expect(path(admin)).toBe('/settings/account');
    await signOut(admin);
  });

  it('a backup code signs in once and is refused the second time', async () => {
    await signIn(admin, ADMIN, ADMIN_PASSWORD);
    await enterCode(admin, backupCodes[0]);
    expect(path(admin)).toBe('/settings/account');
    await signOut(admin);

    await signIn(admin, ADMIN, ADMIN_PASSWORD);
    await enterCode(admin, backupCodes[0]);
    expect(path(admin)).toBe('/login/mfa');
    await expect(admin.locator('[role=alert]').textContent()).resolves.toMatch(/code/i);
  });

  it('with mfa_enforced a new admin cannot open /settings/users until they enrol', async () => {
    expect((await call('PUT', '/api/settings/account', { mfa_enforced: true })).status).toBe(200);
    expect((await call('POST', '/api/users', { email: SECOND, name: 'Second Admin', role: 'admin' })).status).toBe(201);
    second = await browser.newContext();
    const page = await second.newPage();
    await choosePassword(page, await invitationLink(SECOND), SECOND_PASSWORD);
    await signIn(page, SECOND, SECOND_PASSWORD);
    await page.goto(`${server.base}/settings/users`);
    expect(path(page)).toBe('/settings/mfa');
    expect(await page.locator('h1').first().textContent()).not.toMatch(/users/i);

    await enrol(page);
    await page.goto(`${server.base}/settings/users`);
    expect(path(page)).toBe('/settings/users');
    await expect(page.locator(`text=${SECOND}`).first().isVisible()).resolves.toBe(true);
  });

  it('a full OAuth flow from a local client: authorize with PKCE, exchange, call, refresh, revoke', async () => {
    const page = await second.newPage();
    const clientId = await register('E2E Agent');
    const { verifier, challenge } = pkce();
    const received = nextCallback();
    await page.goto(authorizeUrl(clientId, { code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(path(page)).toBe('/oauth/authorize');
    await expect(page.locator('main').textContent()).resolves.toContain('E2E Agent');
    await page.click('button[name=decision][value=allow]');
    const code = (await received).get('code')!;
    expect(code).toMatch(/^oac_/);

    const token = await form('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(token.status).toBe(200);
    const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
    expect((await call('GET', '/api/templates', undefined, bearer(token.json.access_token))).status).toBe(200);

    const refreshed = await form('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: token.json.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(token.json.refresh_token);
    expect((await call('GET', '/api/templates', undefined, bearer(refreshed.json.access_token))).status).toBe(200);

    expect((await form('/oauth/revoke', { token: refreshed.json.access_token, client_id: clientId })).status).toBe(200);
    expect((await call('GET', '/api/templates', undefined, bearer(refreshed.json.access_token))).status).toBe(401);
  });

  it('an authorization request without PKCE goes back to the client with invalid_request', async () => {
    const page = await second.newPage();
    const clientId = await register('No PKCE Agent');
    const received = nextCallback();
    await page.goto(authorizeUrl(clientId, {}));
    const query = await received;
    expect(query.get('error')).toBe('invalid_request');
    expect(query.get('code')).toBeNull();
  });

  it('a code exchanged with a verifier that does not match its challenge is refused at the token endpoint', async () => {
    const page = await second.newPage();
    const clientId = await register('Mismatched Agent');
    const code = await authorize(page, clientId, pkce().challenge);
    const token = await form('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce().verifier,
      client_id: clientId,
    });
    expect(token.status).toBe(400);
    expect(token.json.error).toBe('invalid_grant');
  });

  it('a session idle for more than 30 minutes is refused: the page goes to /login with the idle sentence', async () => {
    const page = await second.newPage();
    await page.goto(`${server.base}/settings/account`);
    expect(path(page)).toBe('/settings/account');
    const longAgo = new Date(Date.now() - 31 * 60 * 1000).toISOString();
    sqlOn(
      server,
      'CONTROL_DB',
      `UPDATE sessions SET last_seen_at = '${longAgo}' WHERE user_id = (SELECT id FROM users WHERE email = '${SECOND}')`,
    );
    await page.reload();
    expect(path(page)).toBe('/login');
    await expect(page.locator('main').textContent()).resolves.toContain(IDLE_SENTENCE);
  });

  it('axe-core finds no serious or critical violation on any console page', async () => {
    const found: string[] = [];
    const check = async (page: Page, name: string) => {
      await page.waitForLoadState();
      const results = await new AxeBuilder({ page }).analyze();
      for (const v of results.violations) {
        if (v.impact === 'serious' || v.impact === 'critical')
          found.push(`${name} (${page.url()}): ${v.id} [${v.impact}] ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    };
    const anonymous = await (await browser.newContext()).newPage();
    await anonymous.goto(`${server.base}/login`);
    await check(anonymous, 'login');
    await anonymous.goto(`${server.base}/login?reason=idle`);
    await check(anonymous, 'login with a reason');
    await anonymous.goto(`${server.base}/password/forgot`);
    await check(anonymous, 'password forgot');
    expect((await call('POST', '/api/users', { email: 'viewer@e2e.test', name: 'Viewer', role: 'viewer' })).status).toBe(201);
    const viewerLink = await invitationLink('viewer@e2e.test');
    await anonymous.goto(viewerLink);
    await check(anonymous, 'password set');
    await choosePassword(anonymous, viewerLink, 'viewer long password 1');

    // The admin, refused a used backup code above, is on /login/mfa.
    await admin.goto(`${server.base}/login/mfa`);
    await admin.waitForSelector('#code');
    await check(admin, 'login/mfa');
    await enterCode(admin, backupCodes[1]);
    expect(path(admin)).toBe('/settings/account');
    // An address literal: the destination check needs no DNS lookup (none is reachable offline).
    const webhook = await call('POST', '/api/webhooks', { url: 'https://93.184.215.14/hooks/e2e' });
    expect(webhook.status, webhook.text).toBe(201);
    const brand = await call('POST', '/api/brands', { name: 'Axe brand', branding: { company_name: 'Axe Co', header_color: '#12345a' } });
    expect(brand.status, brand.text).toBe(201);
    const domain = await call('POST', '/api/custom_domains', { hostname: `axe-${Date.now()}.example.com` });
    expect(domain.status, domain.text).toBe(201);
    const pages = [
      '/settings/account',
      '/settings/users',
      '/settings/tokens',
      '/settings/webhooks',
      `/settings/webhooks/${webhook.json.id}`,
      '/settings/brands',
      `/settings/brands/${brand.json.brand.id}`,
      '/settings/domains',
      `/settings/domains/${domain.json.id}`,
      '/settings/mfa',
      '/settings/apps',
      '/settings/password',
    ];
    for (const p of pages) {
      await admin.goto(`${server.base}${p}`);
      expect(path(admin)).toBe(p);
      await check(admin, p);
    }
    const clientId = await register('Axe Agent');
    await admin.goto(authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
    await admin.waitForSelector('button[name=decision][value=allow]');
    await check(admin, 'OAuth consent');

    // A user who has not enrolled (mfa_enforced lets them in only to enrol) sees the enrolment page.
    await signIn(anonymous, 'viewer@e2e.test', 'viewer long password 1');
    await anonymous.goto(`${server.base}/settings/mfa`);
    expect(path(anonymous)).toBe('/settings/mfa');
    await anonymous.waitForSelector('code.secret');
    await check(anonymous, 'settings/mfa (not enrolled)');

    expect(found).toEqual([]);
  });
});
