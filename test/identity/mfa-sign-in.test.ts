import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, createAccount, type TestAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { enrol, forgetLastStep, getPage, postForm, totpCode } from './mfa-fixtures';

let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
});

/** A user with MFA on, and the secret and backup codes their enrolment showed. */
async function enrolledUser() {
  const user = await addUser(owner.accountId, 'editor');
  const enrolled = await enrol(await sessionFor(user), user.userId);
  return { user, ...enrolled };
}

async function stageOf(sessionId: number): Promise<string | null> {
  const row = await env.CONTROL_DB.prepare('SELECT stage FROM sessions WHERE id = ?').bind(sessionId).first<{ stage: string }>();
  return row?.stage ?? null;
}

const wrongCode = (secret: string) => (totpCode(secret) === '000000' ? '111111' : '000000');

describe('the second step of signing in at /login/mfa', () => {
  it('asks a pending sign-in for a code', async () => {
    const { user } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const page = await getPage('/login/mfa?next=%2Fsettings%2Fusers', pending);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="code"');
    expect(page.text).toContain('value="/settings/users"');
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
  });

  it('sends a browser without a session to sign in, keeping where it was going', async () => {
    const page = await getPage('/login/mfa?next=%2Fsettings%2Fusers', null);
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login?next=%2Fsettings%2Fusers');
  });

  it('sends a browser already fully signed in on to where it was going', async () => {
    const page = await getPage('/login/mfa?next=%2Fsettings%2Fusers', await sessionFor(owner));
    expect(page.status).toBe(303);
    expect(page.location).toBe('/settings/users');
  });

  it('sends a signed-in browser to the default page when next= is a percent-encoded tab or a backslash path', async () => {
    const session = await sessionFor(owner);
    for (const next of ['/%09/evil.example', '/%0A/evil.example', '/%5Cevil.example', '/%5C%09evil.example']) {
      const page = await getPage(`/login/mfa?next=${next}`, session);
      expect(page.status).toBe(303);
      expect(page.location).toBe('/settings/account');
    }
  });

  it('accepts a current TOTP code and completes the sign-in', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', pending, { code: totpCode(secret), next: '/settings/tokens' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings/tokens');
    expect(await stageOf(pending.sessionId)).toBe('full');
  });

  it('never sends the browser to another site after the code', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', pending, { code: totpCode(secret), next: '//evil.example/x' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings/account');
  });

  it('refuses a code of a time step already used', async () => {
    const { user, secret } = await enrolledUser();
    const code = totpCode(secret);
    const first = await sessionFor(user, { stage: 'mfa' });
    expect((await postForm('/login/mfa', first, { code })).status).toBe(303);
    const second = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', second, { code });
    expect(res.status).toBe(422);
    expect(res.text).toContain('That code is not right');
    expect(await stageOf(second.sessionId)).toBe('mfa');
  });

  it('accepts a code of the previous time step (clock drift)', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', pending, { code: totpCode(secret, Date.now() - 30_000) });
    expect(res.status).toBe(303);
  });

  it('refuses a code two time steps old', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const old = totpCode(secret, Date.now() - 90_000);
    const res = await postForm('/login/mfa', pending, { code: old === totpCode(secret) ? wrongCode(secret) : old });
    expect(res.status).toBe(422);
  });

  it('accepts a backup code once, typed in any case and without its dash', async () => {
    const { user, backupCodes } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', pending, { code: backupCodes[3].replace('-', '').toLowerCase() });
    expect(res.status).toBe(303);
    expect(await stageOf(pending.sessionId)).toBe('full');
  });

  it('refuses a backup code the second time', async () => {
    const { user, backupCodes } = await enrolledUser();
    const first = await sessionFor(user, { stage: 'mfa' });
    expect((await postForm('/login/mfa', first, { code: backupCodes[0] })).status).toBe(303);
    const second = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', second, { code: backupCodes[0] });
    expect(res.status).toBe(422);
    expect(await stageOf(second.sessionId)).toBe('mfa');
  });

  it('lets exactly one of two sign-ins presenting the same code at once through', async () => {
    const { user, secret } = await enrolledUser();
    const [a, b] = [await sessionFor(user, { stage: 'mfa' }), await sessionFor(user, { stage: 'mfa' })];
    const code = totpCode(secret);
    const answers = await Promise.all([postForm('/login/mfa', a, { code }), postForm('/login/mfa', b, { code })]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 422]);
  });

  it('lets exactly one of two sign-ins presenting the same backup code at once through', async () => {
    const { user, backupCodes } = await enrolledUser();
    const [a, b] = [await sessionFor(user, { stage: 'mfa' }), await sessionFor(user, { stage: 'mfa' })];
    const code = backupCodes[5];
    const answers = await Promise.all([postForm('/login/mfa', a, { code }), postForm('/login/mfa', b, { code })]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 422]);
  });

  it("refuses another user's backup code", async () => {
    const { backupCodes } = await enrolledUser();
    const { user } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    expect((await postForm('/login/mfa', pending, { code: backupCodes[0] })).status).toBe(422);
  });

  it('refuses a code sent from another origin', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const sent = await SELF.fetch('https://api.test/login/mfa', {
      method: 'POST',
      redirect: 'manual',
      headers: { ...pending.cookie, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: pending.csrfToken, code: totpCode(secret) }).toString(),
    });
    expect(sent.status).toBe(403);
    expect(await stageOf(pending.sessionId)).toBe('mfa');
  });

  it('refuses a code without the session’s CSRF token', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const res = await postForm('/login/mfa', { ...pending, csrfToken: 'x' }, { code: totpCode(secret) });
    expect(res.status).toBe(403);
    expect(await stageOf(pending.sessionId)).toBe('mfa');
  });

  it('does not let a pending sign-in open console pages', async () => {
    const { user } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    const page = await getPage('/settings/mfa', pending);
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login/mfa?next=%2Fsettings%2Fmfa');
  });
});

describe('throttling wrong codes', () => {
  it('ends the pending sign-in after 5 wrong codes and says to sign in again later', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    for (let i = 0; i < 5; i++) {
      const res = await postForm('/login/mfa', pending, { code: wrongCode(secret) });
      expect(res.status).toBe(422);
    }
    const sixth = await postForm('/login/mfa', pending, { code: wrongCode(secret) });
    expect(sixth.status).toBe(429);
    expect(sixth.text).toContain('Too many wrong codes');
    expect(sixth.text).toContain('sign in again');
    expect(await stageOf(pending.sessionId)).toBeNull();
  });

  it('refuses even the right code from a new sign-in while the user is over the limit', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    for (let i = 0; i < 6; i++) await postForm('/login/mfa', pending, { code: wrongCode(secret) });
    const again = await sessionFor(user, { stage: 'mfa' });
    await forgetLastStep(user.userId);
    const res = await postForm('/login/mfa', again, { code: totpCode(secret) });
    expect(res.status).toBe(429);
    expect(await stageOf(again.sessionId)).toBeNull();
  });

  it('counts wrong codes per user: another user of the account is not held back', async () => {
    const { user, secret } = await enrolledUser();
    const pending = await sessionFor(user, { stage: 'mfa' });
    for (let i = 0; i < 6; i++) await postForm('/login/mfa', pending, { code: wrongCode(secret) });
    const other = await enrolledUser();
    const theirs = await sessionFor(other.user, { stage: 'mfa' });
    expect((await postForm('/login/mfa', theirs, { code: totpCode(other.secret) })).status).toBe(303);
  });

  it('throttles wrong codes on the settings page too, without signing the user out', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const { secret } = await enrol(session, user.userId);
    for (let i = 0; i < 5; i++) expect((await postForm('/settings/mfa/disable', session, { code: wrongCode(secret) })).status).toBe(422);
    const sixth = await postForm('/settings/mfa/backup-codes', session, { code: wrongCode(secret) });
    expect(sixth.status).toBe(429);
    expect(sixth.text).toContain('Too many wrong codes');
    const right = await postForm('/settings/mfa/disable', session, { code: totpCode(secret) });
    expect(right.status).toBe(429);
    expect(await stageOf(session.sessionId)).toBe('full');
    const row = await env.CONTROL_DB.prepare('SELECT mfa_enabled_at FROM users WHERE id = ?')
      .bind(user.userId)
      .first<{ mfa_enabled_at: string | null }>();
    expect(row?.mfa_enabled_at).not.toBeNull();
  });
});
