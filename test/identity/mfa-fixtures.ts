// MFA in tests: console form posts and page loads through the Worker (redirects not followed), and
// TOTP codes computed here with otpauth from the secret the enrolment page shows.
import { env, SELF } from 'cloudflare:test';
import { Secret, TOTP } from 'otpauth';
import type { TestSession } from '../session-fixtures';
import { clientAddress } from '../helpers';

export type PageResponse = { status: number; location: string | null; text: string; headers: Headers };

async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<PageResponse> {
  const response = await SELF.fetch(`https://api.test${path}`, {
    method,
    headers: { 'CF-Connecting-IP': clientAddress(), ...headers },
    body,
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('Location'), text: await response.text(), headers: response.headers };
}

/** A console page as the browser of `session` loads it. */
export function getPage(path: string, session: Pick<TestSession, 'cookie'> | null): Promise<PageResponse> {
  return send('GET', path, session ? session.cookie : {});
}

/** A console form post from the page itself: same origin, the session's CSRF token in the form. */
export function postForm(
  path: string,
  session: Pick<TestSession, 'cookie' | 'csrfToken'>,
  fields: Record<string, string>,
): Promise<PageResponse> {
  const body = new URLSearchParams({ csrf_token: session.csrfToken, ...fields }).toString();
  return send('POST', path, { ...session.cookie, Origin: 'https://api.test', 'Content-Type': 'application/x-www-form-urlencoded' }, body);
}

/** The key the enrolment page shows for typing in by hand. */
export function secretOnPage(html: string): string {
  const match = html.match(/data-secret="([A-Z2-7]+)"/);
  if (!match) throw new Error('no secret on the page');
  return match[1];
}

/** The backup codes a page shows once. */
export function backupCodesOnPage(html: string): string[] {
  return [...html.matchAll(/<li><code>([A-Z2-9]{5}-[A-Z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
}

/** The TOTP code for a moment (now by default), as the user's app shows it. */
export function totpCode(secretBase32: string, timestamp = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: 30, timestamp });
}

/**
 * Forgets the last accepted time step, so the current code works again: tests that sign in after
 * enrolling would otherwise wait for the next 30-second step.
 */
export async function forgetLastStep(userId: number): Promise<void> {
  await env.CONTROL_DB.prepare('UPDATE users SET mfa_last_step = NULL WHERE id = ?').bind(userId).run();
}

/** Enrols a user through the pages and returns the secret and the 8 backup codes shown. */
export async function enrol(
  session: Pick<TestSession, 'cookie' | 'csrfToken'>,
  userId: number,
): Promise<{ secret: string; backupCodes: string[] }> {
  const page = await getPage('/settings/mfa', session);
  if (page.status !== 200) throw new Error(`enrolment page answered ${page.status}`);
  const secret = secretOnPage(page.text);
  const done = await postForm('/settings/mfa/enable', session, { code: totpCode(secret) });
  if (done.status !== 200) throw new Error(`enrolment answered ${done.status}: ${done.text}`);
  await forgetLastStep(userId);
  return { secret, backupCodes: backupCodesOnPage(done.text) };
}
