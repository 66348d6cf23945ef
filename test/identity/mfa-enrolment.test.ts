import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { Secret } from 'otpauth';
import { addUser, createAccount, type TestAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { decryptAtRest } from '../../src/lib/encryption';
import { backupCodesOnPage, enrol, getPage, postForm, secretOnPage, totpCode } from './mfa-fixtures';

let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount();
});

async function userRow(userId: number) {
  return env.CONTROL_DB.prepare('SELECT mfa_secret, mfa_enabled_at, mfa_last_step FROM users WHERE id = ?')
    .bind(userId)
    .first<{ mfa_secret: string | null; mfa_enabled_at: string | null; mfa_last_step: number | null }>();
}

describe('MFA enrolment at /settings/mfa', () => {
  it('shows a QR code with alt text and the key to type in, without turning MFA on', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const page = await getPage('/settings/mfa', await sessionFor(user));
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<img src="data:image\/svg\+xml;base64,[^"]+"[^>]*alt="QR code that adds member\d+@example\.com/);
    expect(secretOnPage(page.text)).toMatch(/^[A-Z2-7]{32}$/);
    expect((await userRow(user.userId))?.mfa_enabled_at).toBeNull();
  });

  it('stores the key shown on the page as 20 random bytes', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const page = await getPage('/settings/mfa', await sessionFor(user));
    const row = await userRow(user.userId);
    const bytes = await decryptAtRest(env.ENCRYPTION_KEY, row!.mfa_secret!, `users.mfa_secret:${user.userId}`);
    expect(bytes.length).toBe(20);
    expect(new Secret({ buffer: bytes.slice().buffer }).base32).toBe(secretOnPage(page.text));
  });

  it('stores the secret encrypted, never in clear', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const page = await getPage('/settings/mfa', await sessionFor(user));
    const row = await userRow(user.userId);
    expect(row?.mfa_secret).toMatch(/^v1\./);
    expect(row?.mfa_secret).not.toContain(secretOnPage(page.text));
  });

  it('shows the same key again on a reload before confirming', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const first = secretOnPage((await getPage('/settings/mfa', session)).text);
    const second = secretOnPage((await getPage('/settings/mfa', session)).text);
    expect(second).toBe(first);
  });

  it('refuses a wrong code with a sentence and leaves MFA off', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const secret = secretOnPage((await getPage('/settings/mfa', session)).text);
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    const res = await postForm('/settings/mfa/enable', session, { code: wrong });
    expect(res.status).toBe(422);
    expect(res.text).toContain('That code is not right');
    expect((await userRow(user.userId))?.mfa_enabled_at).toBeNull();
  });

  it('refuses a code that is not six digits, with a sentence', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    await getPage('/settings/mfa', session);
    const res = await postForm('/settings/mfa/enable', session, { code: 'abc' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('6-digit code');
  });

  it('turns MFA on with the right code and shows 8 distinct backup codes once', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const secret = secretOnPage((await getPage('/settings/mfa', session)).text);
    const res = await postForm('/settings/mfa/enable', session, { code: totpCode(secret) });
    expect(res.status).toBe(200);
    const codes = backupCodesOnPage(res.text);
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    expect((await userRow(user.userId))?.mfa_enabled_at).not.toBeNull();
    const again = await getPage('/settings/mfa', session);
    expect(backupCodesOnPage(again.text)).toEqual([]);
    expect(again.text).toContain('8 unused backup codes');
  });

  it('stores backup codes only as hashes', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const { backupCodes } = await enrol(await sessionFor(user), user.userId);
    const rows = await env.CONTROL_DB.prepare('SELECT code_hash FROM mfa_backup_codes WHERE user_id = ?')
      .bind(user.userId)
      .all<{ code_hash: string }>();
    expect(rows.results).toHaveLength(8);
    for (const row of rows.results) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of backupCodes) expect(row.code_hash).not.toContain(code.replace('-', ''));
    }
  });

  it('refuses a form without the CSRF token', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const secret = secretOnPage((await getPage('/settings/mfa', session)).text);
    const res = await postForm('/settings/mfa/enable', { ...session, csrfToken: 'nope' }, { code: totpCode(secret) });
    expect(res.status).toBe(403);
    expect((await userRow(user.userId))?.mfa_enabled_at).toBeNull();
  });

  it('sends a visitor without a session to sign in', async () => {
    const page = await getPage('/settings/mfa', null);
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login?next=%2Fsettings%2Fmfa');
  });
});

describe('backup codes and turning MFA off', () => {
  it('makes new backup codes for a current code, and the old ones stop working', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const { secret, backupCodes } = await enrol(session, user.userId);
    const res = await postForm('/settings/mfa/backup-codes', session, { code: totpCode(secret) });
    expect(res.status).toBe(200);
    const fresh = backupCodesOnPage(res.text);
    expect(fresh).toHaveLength(8);
    expect(fresh).not.toContain(backupCodes[0]);
    // An old code no longer turns MFA off; a new one does.
    const old = await postForm('/settings/mfa/disable', session, { code: backupCodes[0] });
    expect(old.status).toBe(422);
    const current = await postForm('/settings/mfa/disable', session, { code: fresh[0] });
    expect(current.status).toBe(303);
  });

  it('refuses to make new backup codes for a wrong code', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const { secret } = await enrol(session, user.userId);
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    const res = await postForm('/settings/mfa/backup-codes', session, { code: wrong });
    expect(res.status).toBe(422);
    expect(backupCodesOnPage(res.text)).toEqual([]);
  });

  it('refuses to turn MFA off without a right code', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const { secret } = await enrol(session, user.userId);
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    const res = await postForm('/settings/mfa/disable', session, { code: wrong });
    expect(res.status).toBe(422);
    expect(res.text).toContain('That code is not right');
    expect((await userRow(user.userId))?.mfa_enabled_at).not.toBeNull();
  });

  it('turns MFA off with a current code, ends every session of the user and sends to sign-in', async () => {
    const user = await addUser(owner.accountId, 'editor');
    const session = await sessionFor(user);
    const elsewhere = await sessionFor(user);
    const bystander = await sessionFor(owner);
    const { secret } = await enrol(session, user.userId);
    const res = await postForm('/settings/mfa/disable', session, { code: totpCode(secret) });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    expect(res.headers.get('Set-Cookie')).toMatch(/_signing_service_session=;/);
    const left = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?')
      .bind(user.userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await getPage('/settings/mfa', elsewhere)).status).toBe(303);
    expect((await getPage('/settings/mfa', bystander)).status).toBe(200);
    const row = await userRow(user.userId);
    expect(row).toMatchObject({ mfa_secret: null, mfa_enabled_at: null });
    const codes = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM mfa_backup_codes WHERE user_id = ?')
      .bind(user.userId)
      .first<{ n: number }>();
    expect(codes?.n).toBe(0);
  });
});
