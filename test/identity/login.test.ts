import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { hashPassword } from '../../src/services/identity/passwords';
import { ACCOUNT_FAILURE_LIMIT, SIGN_IN_ATTEMPT_LIMIT } from '../../src/services/identity/sign-in';
import { addUser, createAccount, type TestAccount } from '../helpers';
import {
  cookieFrom,
  emailOf,
  freshIp,
  getPage,
  givePassword,
  PASSWORD,
  postForm,
  sessionsOf,
  spendSignInAttempts,
} from './sign-in-fixtures';

let owner: TestAccount;
let ownerEmail: string;

beforeAll(async () => {
  owner = await createAccount();
  await givePassword(owner.userId);
  ownerEmail = await emailOf(owner.userId);
});

async function signedUpUser(): Promise<{ user: TestAccount; email: string }> {
  const user = await createAccount();
  await givePassword(user.userId);
  return { user, email: await emailOf(user.userId) };
}

describe('the sign-in page', { timeout: 60_000 }, () => {
  it('labels its inputs and gives them their autocomplete purposes', async () => {
    const page = await getPage('/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="email">');
    expect(page.text).toMatch(/<input id="email" name="email" type="email" autocomplete="username"/);
    expect(page.text).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password"/);
  });

  it('says why a session ended when it was idle', async () => {
    const page = await getPage('/login?reason=idle');
    expect(page.text).toContain('30 minutes without activity');
  });

  it('signs in with the right password and sets the spec’s session cookie', async () => {
    const res = await postForm('/login', { email: ownerEmail, password: PASSWORD, next: '/settings/users' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings/users');
    expect(res.setCookie).toMatch(/^_signing_service_session=[0-9A-Za-z]{43};/);
    expect(res.setCookie).toContain('HttpOnly');
    expect(res.setCookie).toContain('Secure');
    expect(res.setCookie).toContain('SameSite=Lax');
    expect(res.setCookie).toContain('Path=/');
  });

  it('opens a full session that authenticates console API calls', async () => {
    const { user, email } = await signedUpUser();
    const res = await postForm('/login', { email: email.toUpperCase(), password: PASSWORD });
    expect((await sessionsOf(user.userId)).map((s) => s.stage)).toEqual(['full']);
    const me = await getPage('/api/user', cookieFrom(res));
    expect(JSON.parse(me.text)).toMatchObject({ id: user.userId });
  });

  it('refuses a wrong password with one generic sentence and no cookie', async () => {
    const res = await postForm('/login', { email: ownerEmail, password: 'not the password at all' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('The email or password is wrong.');
    expect(res.setCookie).toBe('');
  });

  it('answers an unknown email with the same sentence as a wrong password', async () => {
    const res = await postForm('/login', { email: 'nobody-here@example.com', password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.text).toContain('The email or password is wrong.');
  });

  it('refuses a user who has no password yet', async () => {
    const user = await createAccount();
    const res = await postForm('/login', { email: await emailOf(user.userId), password: PASSWORD });
    expect(res.status).toBe(401);
  });

  it('refuses an archived user', async () => {
    const { user, email } = await signedUpUser();
    await env.CONTROL_DB.prepare('UPDATE users SET archived_at = ? WHERE id = ?').bind(new Date().toISOString(), user.userId).run();
    const res = await postForm('/login', { email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(await sessionsOf(user.userId)).toEqual([]);
  });

  it('refuses a user of a suspended account', async () => {
    const { user, email } = await signedUpUser();
    await env.CONTROL_DB.prepare('UPDATE accounts SET suspended_at = ? WHERE id = ?').bind(new Date().toISOString(), user.accountId).run();
    const res = await postForm('/login', { email, password: PASSWORD });
    expect(res.status).toBe(401);
  });

  it('never sends the browser to another origin after signing in', async () => {
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const { email } = await signedUpUser();
      const res = await postForm('/login', { email, password: PASSWORD, next });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/settings/account');
    }
  });

  it('refuses a next path with a control character or a backslash, which a browser reads as another origin', async () => {
    for (const next of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/\u0000/evil.example',
      '/\\evil.example',
      '/x/..\\..\\evil',
      '/\\\t/evil',
    ]) {
      const { email } = await signedUpUser();
      const res = await postForm('/login', { email, password: PASSWORD, next });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/settings/account');
    }
  });

  it('still sends the browser on to an ordinary path with a query', async () => {
    const { email } = await signedUpUser();
    const res = await postForm('/login', { email, password: PASSWORD, next: '/templates?page=2&q=a%20b' });
    expect(res.location).toBe('/templates?page=2&q=a%20b');
  });

  it('opens only the MFA step for a user with MFA, and sends them to it', async () => {
    const { user, email } = await signedUpUser();
    await env.CONTROL_DB.prepare('UPDATE users SET mfa_enabled_at = ? WHERE id = ?').bind(new Date().toISOString(), user.userId).run();
    const res = await postForm('/login', { email, password: PASSWORD, next: '/settings/tokens' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login/mfa?next=%2Fsettings%2Ftokens');
    expect((await sessionsOf(user.userId)).map((s) => s.stage)).toEqual(['mfa']);
  });

  it('refuses a sign-in form posted from another site', async () => {
    const { user, email } = await signedUpUser();
    const res = await postForm('/login', { email, password: PASSWORD }, { headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.setCookie).toBe('');
    expect(await sessionsOf(user.userId)).toEqual([]);
  });

  it('upgrades a stored hash made with weaker parameters at sign-in', async () => {
    const { user, email } = await signedUpUser();
    await env.CONTROL_DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
      .bind(await hashPassword(PASSWORD, { logN: 10, r: 8, p: 1 }), user.userId)
      .run();
    expect((await postForm('/login', { email, password: PASSWORD })).status).toBe(303);
    const row = await env.CONTROL_DB.prepare('SELECT password_hash FROM users WHERE id = ?')
      .bind(user.userId)
      .first<{ password_hash: string }>();
    expect(row!.password_hash).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$/);
  });
});

describe('sign-in throttling', { timeout: 60_000 }, () => {
  it('answers 429 with a sentence once a client address has used its attempts', async () => {
    const ip = freshIp();
    const first = await postForm('/login', { email: 'someone-else@example.com', password: 'wrong password here' }, { ip });
    expect(first.status).toBe(401);
    await spendSignInAttempts(`signin:ip:${ip}`, SIGN_IN_ATTEMPT_LIMIT - 1);
    const res = await postForm('/login', { email: ownerEmail, password: PASSWORD }, { ip });
    expect(res.status).toBe(429);
    expect(res.text).toContain('Too many sign-in attempts');
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('answers 429 once an email has used its attempts, from any address', async () => {
    const { email } = await signedUpUser();
    const first = await postForm('/login', { email, password: 'wrong password here' });
    expect(first.status).toBe(401);
    await spendSignInAttempts(`signin:email:${await sha256Hex(email.toLowerCase())}`, SIGN_IN_ATTEMPT_LIMIT - 1);
    const res = await postForm('/login', { email, password: PASSWORD }, { ip: freshIp() });
    expect(res.status).toBe(429);
  });
});

describe('sign-in throttling per account', { timeout: 60_000 }, () => {
  it('refuses every user of an account once it has had too many failed sign-ins, from any address', async () => {
    const { user, email } = await signedUpUser();
    const colleague = await addUser(user.accountId, 'editor');
    await givePassword(colleague.userId);
    const colleagueEmail = await emailOf(colleague.userId);
    const first = await postForm('/login', { email, password: 'wrong password here' }, { ip: freshIp() });
    expect(first.status).toBe(401);
    await spendSignInAttempts(`signin:account:${user.accountId}`, ACCOUNT_FAILURE_LIMIT - 1, ACCOUNT_FAILURE_LIMIT);
    const res = await postForm('/login', { email: colleagueEmail, password: PASSWORD }, { ip: freshIp() });
    expect(res.status).toBe(429);
    expect(res.text).toContain('Too many sign-in attempts');
    expect(await sessionsOf(colleague.userId)).toEqual([]);
  });

  it('does not count successful sign-ins against the account', async () => {
    const { user, email } = await signedUpUser();
    await spendSignInAttempts(`signin:account:${user.accountId}`, ACCOUNT_FAILURE_LIMIT - 1, ACCOUNT_FAILURE_LIMIT);
    expect((await postForm('/login', { email, password: PASSWORD }, { ip: freshIp() })).status).toBe(303);
    expect((await postForm('/login', { email, password: PASSWORD }, { ip: freshIp() })).status).toBe(303);
  });
});

describe('one email on several accounts', { timeout: 60_000 }, () => {
  it('asks which account when the password matches users of two accounts, and signs in to the one chosen', async () => {
    const first = await createAccount({ name: 'First Co' });
    const second = await createAccount({ name: 'Second Co' });
    const email = `shared-${Date.now()}@example.com`;
    for (const user of [first, second]) {
      await env.CONTROL_DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, user.userId).run();
      await givePassword(user.userId);
    }
    const chooser = await postForm('/login', { email, password: PASSWORD });
    expect(chooser.status).toBe(200);
    expect(chooser.text).toContain('First Co');
    expect(chooser.text).toContain('Second Co');
    const tokens = [...chooser.text.matchAll(/name="token" value="([0-9A-Za-z]{43})"/g)].map((m) => m[1]);
    expect(tokens).toHaveLength(2);
    // Newest first: the second account's button comes first.
    const chosen = await postForm('/login/choose', { token: tokens[0] });
    expect(chosen.status).toBe(303);
    expect((await sessionsOf(second.userId)).length).toBe(1);
    expect(await sessionsOf(first.userId)).toEqual([]);
    const again = await postForm('/login/choose', { token: tokens[0] });
    expect(again.status).toBe(410);
  });
});

describe('one email on many accounts, each user with its own password', { timeout: 90_000 }, () => {
  async function sharing(email: string, name: string) {
    const account = await createAccount({ name });
    await env.CONTROL_DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, account.userId).run();
    return account;
  }

  it('signs the person in to the user whose password matches, even with five newer users of that email', async () => {
    const email = `many-${Date.now()}@example.com`;
    const oldest = await sharing(email, 'Oldest Co');
    const ownPassword = 'the oldest user has this password';
    await env.CONTROL_DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
      .bind(await hashPassword(ownPassword), oldest.userId)
      .run();
    for (let i = 0; i < 5; i++) await givePassword((await sharing(email, `Newer ${i} Co`)).userId);
    const res = await postForm('/login', { email, password: ownPassword });
    expect(res.status).toBe(303);
    expect((await sessionsOf(oldest.userId)).map((s) => s.stage)).toEqual(['full']);
    const newer = await postForm('/login', { email, password: PASSWORD });
    expect(newer.status).toBe(200);
    expect(newer.text).toContain('Newer 0 Co');
  });

  it('is not locked out of one account because another account of that email used up its failed sign-ins', async () => {
    const email = `locked-${Date.now()}@example.com`;
    const mine = await sharing(email, 'Mine Co');
    const theirs = await sharing(email, 'Theirs Co');
    await givePassword(mine.userId);
    await env.CONTROL_DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
      .bind(await hashPassword('another password of theirs'), theirs.userId)
      .run();
    await spendSignInAttempts(`signin:account:${theirs.accountId}`, ACCOUNT_FAILURE_LIMIT, ACCOUNT_FAILURE_LIMIT);
    const res = await postForm('/login', { email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect((await sessionsOf(mine.userId)).map((s) => s.stage)).toEqual(['full']);
  });

  it('is not held back by a user of that email who has no password yet (an invitation not taken up)', async () => {
    const email = `invited-${Date.now()}@example.com`;
    const mine = await sharing(email, 'Mine Co');
    await givePassword(mine.userId);
    const inviter = await sharing(email, 'Inviter Co');
    await spendSignInAttempts(`signin:account:${inviter.accountId}`, ACCOUNT_FAILURE_LIMIT, ACCOUNT_FAILURE_LIMIT);
    expect((await postForm('/login', { email, password: PASSWORD })).status).toBe(303);
  });
});

describe('malformed sign-in requests', () => {
  it('answers a body that is not a form with a sentence, not a 500', async () => {
    const res = await postForm('/login', {}, { headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Enter your email and your password.');
  });

  it('refuses a form larger than any sign-in form with 413', async () => {
    const res = await postForm('/login', { email: 'a@example.com', password: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(res.text).toContain('The form is too large.');
  });
});
