// Console sign-in in tests: users with a known password and form posts as a browser sends them.
import { env, SELF } from 'cloudflare:test';
import { hashPassword } from '../../src/services/identity/passwords';
import { sessionCookieName } from '../../src/services/identity/sessions';

export const PASSWORD = 'correct horse battery staple';

let storedHash: Promise<string> | undefined;

/** Gives a user PASSWORD (one scrypt per test file, shared by every user). */
export async function givePassword(userId: number): Promise<void> {
  storedHash ??= hashPassword(PASSWORD);
  await env.CONTROL_DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
    .bind(await storedHash, userId)
    .run();
}

export async function emailOf(userId: number): Promise<string> {
  const row = await env.CONTROL_DB.prepare('SELECT email FROM users WHERE id = ?').bind(userId).first<{ email: string }>();
  return row!.email;
}

let ipCounter = 0;
/** A client address no other test used: the sign-in throttle counts per address. */
export function freshIp(): string {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) + 10}.${(ipCounter % 250) + 1}`;
}

export type FormResponse = { status: number; location: string | null; setCookie: string; text: string; headers: Headers };

/** A form POST from this origin's own page (Origin https://api.test), redirects not followed. */
export async function postForm(
  path: string,
  fields: Record<string, string>,
  options: { headers?: Record<string, string>; ip?: string } = {},
): Promise<FormResponse> {
  const response = await SELF.fetch(`https://api.test${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: 'https://api.test',
      'CF-Connecting-IP': options.ip ?? freshIp(),
      ...options.headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    location: response.headers.get('Location'),
    setCookie: response.headers.get('Set-Cookie') ?? '',
    text: await response.text(),
    headers: response.headers,
  };
}

export async function getPage(path: string, headers: Record<string, string> = {}): Promise<FormResponse> {
  const response = await SELF.fetch(`https://api.test${path}`, {
    redirect: 'manual',
    headers: { 'CF-Connecting-IP': freshIp(), ...headers },
  });
  return {
    status: response.status,
    location: response.headers.get('Location'),
    setCookie: response.headers.get('Set-Cookie') ?? '',
    text: await response.text(),
    headers: response.headers,
  };
}

/** The session cookie a response set, as the `Cookie` header to send back. */
export function cookieFrom(response: FormResponse): Record<string, string> {
  const name = sessionCookieName(env);
  const match = new RegExp(`${name}=([^;]*)`).exec(response.setCookie);
  if (!match || !match[1]) throw new Error(`no ${name} cookie in: ${response.setCookie}`);
  return { Cookie: `${name}=${match[1]}` };
}

export async function sessionsOf(userId: number): Promise<{ id: number; stage: string }[]> {
  const rows = await env.CONTROL_DB.prepare('SELECT id, stage FROM sessions WHERE user_id = ? ORDER BY id')
    .bind(userId)
    .all<{ id: number; stage: string }>();
  return rows.results;
}

/** Counts `times` attempts in the sign-in limiter under `key`, as earlier attempts would have. */
export async function spendSignInAttempts(key: string, times: number, limit = 10): Promise<void> {
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
  for (let i = 0; i < times; i++) await limiter.take({ limit, windowMs: 15 * 60 * 1000 });
}
