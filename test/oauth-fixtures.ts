// OAuth 2.1 flows for tests: register a client, compute PKCE with WebCrypto, consent as a signed-in
// console user, and call the token and revocation endpoints form-encoded.
import { SELF } from 'cloudflare:test';
import { sessionFor, type TestSession } from './session-fixtures';
import { clientAddress } from './helpers';

export const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

let ipCounter = 0;
/** Each registration from its own address block, so the per-address registration limit stays out of the way. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 8) & 255}.${ipCounter & 255}.1`;
}

export async function request(method: string, path: string, init: { headers?: Record<string, string>; body?: string; ip?: string } = {}) {
  const response = await SELF.fetch(`https://api.test${path}`, {
    method,
    redirect: 'manual',
    headers: { 'CF-Connecting-IP': init.ip ?? clientAddress(), ...init.headers },
    body: init.body,
  });
  const text = await response.text();
  let json: any; // OAuth answers are asserted field by field
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, location: response.headers.get('Location') };
}

export type RegisteredClient = { client_id: string; client_secret?: string; [key: string]: unknown };

export async function registerClient(metadata: Record<string, unknown> = {}, ip = freshIp()) {
  return request('POST', '/oauth/register', {
    ip,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Agent Smith', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  });
}

export async function publicClient(metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const res = await registerClient(metadata);
  if (res.status !== 201) throw new Error(`registration failed: ${res.text}`);
  return res.json;
}

function base64Url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64Url(crypto.getRandomValues(new Uint8Array(32)).buffer);
  const challenge = base64Url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export function authorizeQuery(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query}`;
}

export function form(values: Record<string, string>): string {
  return new URLSearchParams(values).toString();
}

/** The consent form's POST, as the browser sends it from the page. */
export async function decide(session: TestSession, params: Record<string, string>, decision: 'allow' | 'deny') {
  return request('POST', '/oauth/authorize', {
    headers: { ...session.cookie, Origin: 'https://api.test', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form({ ...params, decision, csrf_token: session.csrfToken }),
  });
}

export type Flow = { client: RegisteredClient; verifier: string; code: string; session: TestSession };

/** Registers (unless given) a public client and has `user` allow it: the code to exchange. */
export async function authorizedCode(user: { userId: number; accountId: number }, scope: string, client?: RegisteredClient): Promise<Flow> {
  const registered = client ?? (await publicClient());
  const session = await sessionFor(user);
  const { verifier, challenge } = await pkce();
  const res = await decide(
    session,
    {
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT_URI,
      scope,
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    },
    'allow',
  );
  const code = res.location ? new URL(res.location).searchParams.get('code') : null;
  if (!code) throw new Error(`no code: ${res.status} ${res.location ?? res.text}`);
  return { client: registered, verifier, code, session };
}

export async function tokenRequest(values: Record<string, string>, headers: Record<string, string> = {}) {
  return request('POST', '/oauth/token', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: form(values),
  });
}

export async function exchange(flow: Flow, overrides: Record<string, string> = {}) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code: flow.code,
    redirect_uri: REDIRECT_URI,
    client_id: flow.client.client_id,
    code_verifier: flow.verifier,
    ...overrides,
  });
}

/** A full flow for `user`: the token response. */
export async function oauthTokens(
  user: { userId: number; accountId: number },
  scope: string,
): Promise<{ access_token: string; refresh_token: string; scope: string; client: RegisteredClient }> {
  const flow = await authorizedCode(user, scope);
  const res = await exchange(flow);
  if (res.status !== 200) throw new Error(`exchange failed: ${res.text}`);
  return { ...res.json, client: flow.client };
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
