import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db/client';
import { CONTROL_CRON_STEPS } from '../../src/scheduled/index';
import { controlDb } from '../../src/db/shards';
import { requestPasswordReset } from '../../src/services/identity/password-emails';
import { createAccount, api, partnerApi, type TestAccount } from '../helpers';
import { messagesTo } from '../signing/fixtures';
import { sessionFor } from '../session-fixtures';
import { emailOf, getPage, givePassword, PASSWORD, postForm, sessionsOf } from './sign-in-fixtures';

const NEW_PASSWORD = 'a brand new long password';

let admin: TestAccount;

beforeAll(async () => {
  admin = await createAccount();
});

let counter = 0;
async function invite(): Promise<{ id: number; email: string; link: string; token: string }> {
  counter += 1;
  const email = `invited-${counter}-${Date.now()}@example.com`;
  const res = await api('POST', '/api/users', { token: admin.token, body: { email, name: 'Invited', role: 'editor' } });
  expect(res.status).toBe(201);
  const [mail] = await messagesTo(email, 'password_invite');
  const link = /https:\/\/api\.test\/password\/set\?token=([0-9A-Za-z]{43})/.exec(mail.text)!;
  return { id: res.json.id, email, link: link[0], token: link[1] };
}

async function passwordHashOf(userId: number): Promise<string | null> {
  const row = await env.CONTROL_DB.prepare('SELECT password_hash FROM users WHERE id = ?')
    .bind(userId)
    .first<{ password_hash: string | null }>();
  return row!.password_hash;
}

describe('invitations', { timeout: 60_000 }, () => {
  it('emails a new user of POST /api/users a link to choose a password', async () => {
    const { email, link } = await invite();
    const [mail] = await messagesTo(email, 'password_invite');
    expect(mail.subject).toMatch(/invited/);
    expect(link).toMatch(/^https:\/\/api\.test\/password\/set\?token=/);
    const page = await getPage(new URL(link).pathname + new URL(link).search);
    expect(page.status).toBe(200);
    expect(page.text).toContain(email);
    expect(page.text).toContain('autocomplete="new-password"');
  });

  it('emails the admin a partner creates the same link', async () => {
    const account = await partnerApi('POST', '/accounts', { body: { name: 'Partner Made' } });
    const email = `partner-admin-${Date.now()}@example.com`;
    const res = await partnerApi('POST', `/accounts/${account.json.id}/access_tokens`, {
      body: { email, name: 'Owner', token_name: 'bootstrap' },
    });
    expect(res.status).toBe(201);
    expect(await messagesTo(email, 'password_invite')).toHaveLength(1);
  });

  it('sets the password from the link, sends to the sign-in page, and the password then signs in', async () => {
    const { id, email, token } = await invite();
    const res = await postForm('/password/set', { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?reason=password_set');
    expect(await passwordHashOf(id)).toMatch(/^\$scrypt\$/);
    const signIn = await postForm('/login', { email, password: NEW_PASSWORD });
    expect(signIn.status).toBe(303);
  });

  it('refuses a link that was used already', async () => {
    const { token } = await invite();
    expect((await postForm('/password/set', { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).status).toBe(303);
    const again = await postForm('/password/set', {
      token,
      password: 'yet another long password',
      password_confirmation: 'yet another long password',
    });
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used');
    expect((await getPage(`/password/set?token=${token}`)).status).toBe(410);
  });

  it('uses a link once when two requests race with it', async () => {
    const { id, token } = await invite();
    const [a, b] = await Promise.all([
      postForm('/password/set', { token, password: 'first racing password', password_confirmation: 'first racing password' }),
      postForm('/password/set', { token, password: 'second racing password', password_confirmation: 'second racing password' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([303, 410]);
    const winner = a.status === 303 ? 'first racing password' : 'second racing password';
    const { verifyPassword } = await import('../../src/services/identity/passwords');
    expect((await verifyPassword(winner, await passwordHashOf(id))).ok).toBe(true);
  });

  it('refuses a password shorter than 12 characters with a sentence and keeps the link usable', async () => {
    const { token } = await invite();
    const res = await postForm('/password/set', { token, password: 'short', password_confirmation: 'short' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('at least 12 characters');
    expect((await getPage(`/password/set?token=${token}`)).status).toBe(200);
  });

  it('refuses a password longer than 256 bytes with a sentence', async () => {
    const { token } = await invite();
    const long = 'x'.repeat(257);
    const res = await postForm('/password/set', { token, password: long, password_confirmation: long });
    expect(res.status).toBe(422);
    expect(res.text).toContain('at most 256 bytes');
  });

  it('refuses an invitation link older than 7 days', async () => {
    const { token } = await invite();
    await env.CONTROL_DB.prepare("UPDATE password_tokens SET expires_at = ? WHERE purpose = 'invite' AND used_at IS NULL")
      .bind(new Date(Date.now() - 1000).toISOString())
      .run();
    expect((await getPage(`/password/set?token=${token}`)).status).toBe(410);
  });
});

describe('password reset', { timeout: 60_000 }, () => {
  it('answers a known and an unknown email with the same page', async () => {
    const user = await createAccount();
    const known = await postForm('/password/forgot', { email: await emailOf(user.userId) });
    const unknown = await postForm('/password/forgot', { email: 'never-registered@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    const sentence = (text: string) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(text)![1];
    expect(sentence(known.text)).toContain('If that email signs in here');
    expect(await messagesTo('never-registered@example.com')).toEqual([]);
  });

  it('takes the same step for a known and an unknown email: one piece of work after the answer, nothing before it', async () => {
    const user = await createAccount();
    const email = await emailOf(user.userId);
    for (const address of [email, `never-${Date.now()}@example.com`]) {
      const work: Promise<unknown>[] = [];
      const returned = requestPasswordReset(env, controlDb(env), address, 'https://api.test', (task) => work.push(task));
      expect(returned).toBeUndefined();
      expect(work).toHaveLength(1);
      expect(await messagesTo(address, 'password_reset')).toEqual([]);
      await Promise.all(work);
    }
    expect(await messagesTo(email, 'password_reset')).toHaveLength(1);
  });

  it('emails a one-hour reset link that sets a new password and ends every session of the user', async () => {
    const user = await createAccount();
    await givePassword(user.userId);
    const email = await emailOf(user.userId);
    await sessionFor(user);
    await postForm('/password/forgot', { email });
    // The link is sent after the answer (waitUntil).
    const [mail] = await vi.waitFor(async () => {
      const sent = await messagesTo(email, 'password_reset');
      expect(sent).toHaveLength(1);
      return sent;
    });
    const token = /password\/set\?token=([0-9A-Za-z]{43})/.exec(mail.text)![1];
    const row = await env.CONTROL_DB.prepare('SELECT expires_at, created_at FROM password_tokens WHERE user_id = ? AND purpose = ?')
      .bind(user.userId, 'reset')
      .first<{ expires_at: string; created_at: string }>();
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(60 * 60 * 1000);
    const res = await postForm('/password/set', { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.status).toBe(303);
    expect(await sessionsOf(user.userId)).toEqual([]);
    expect((await postForm('/login', { email, password: PASSWORD })).status).toBe(401);
  });

  it('uses up the user’s other outstanding links when a password is set', async () => {
    const user = await createAccount();
    const email = await emailOf(user.userId);
    await postForm('/password/forgot', { email });
    await postForm('/password/forgot', { email });
    const sent = await vi.waitFor(async () => {
      const both = await messagesTo(email, 'password_reset');
      expect(both).toHaveLength(2);
      return both;
    });
    const tokens = sent.map((m) => /token=([0-9A-Za-z]{43})/.exec(m.text)![1]);
    expect(
      (await postForm('/password/set', { token: tokens[1], password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).status,
    ).toBe(303);
    expect((await getPage(`/password/set?token=${tokens[0]}`)).status).toBe(410);
  });
});

describe('the control database cron steps', () => {
  it('delete ended sessions and used or expired password links, and keep live ones', async () => {
    const user = await createAccount();
    const live = await sessionFor(user);
    const old = await sessionFor(user, { now: Date.now() - 31 * 60 * 1000 });
    const insert =
      'INSERT INTO password_tokens (token_hash, account_id, user_id, purpose, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id';
    const future = new Date(Date.now() + 3600_000).toISOString();
    const unused = await env.CONTROL_DB.prepare(insert)
      .bind(`live-${Date.now()}`, user.accountId, user.userId, 'reset', future, null)
      .first<{ id: number }>();
    const used = await env.CONTROL_DB.prepare(insert)
      .bind(`used-${Date.now()}`, user.accountId, user.userId, 'reset', future, new Date().toISOString())
      .first<{ id: number }>();
    const expired = await env.CONTROL_DB.prepare(insert)
      .bind(`expired-${Date.now()}`, user.accountId, user.userId, 'invite', new Date(Date.now() - 1000).toISOString(), null)
      .first<{ id: number }>();
    const control = createDb(env.CONTROL_DB);
    for (const step of CONTROL_CRON_STEPS) await step.run(control, Date.now());
    expect((await sessionsOf(user.userId)).map((s) => s.id)).toEqual([live.sessionId]);
    expect(old.sessionId).not.toBe(live.sessionId);
    const left = await env.CONTROL_DB.prepare('SELECT id FROM password_tokens WHERE id IN (?, ?, ?)')
      .bind(unused!.id, used!.id, expired!.id)
      .all<{ id: number }>();
    expect(left.results.map((r) => r.id)).toEqual([unused!.id]);
  });
});

describe('the stored invitation email', () => {
  it('loses the link’s token once a real transport delivered it', async () => {
    const { getMessage } = await import('../../src/db/queries/messages');
    const { deliverMessage } = await import('../../src/services/mail/deliver');
    const { shardOf } = await import('../helpers');
    const { token, email } = await invite();
    const shard = await shardOf(admin.accountId);
    const db = createDb(shard);
    const { id } = (await shard
      .prepare("SELECT id FROM messages WHERE kind = 'password_invite' AND recipient = ?")
      .bind(email)
      .first<{ id: number }>())!;
    // The test queue delivered it to the development outbox, which keeps it (it is the inbox there).
    await shard.prepare("UPDATE messages SET status = 'queued' WHERE id = ?").bind(id).run();
    expect(await deliverMessage(db, { ...env, MAIL_TRANSPORT: 'cloudflare', MAIL_FROM: 'no-reply@sign.test' }, id)).toEqual({
      status: 'sent',
    });
    const stored = (await getMessage(db, id))!;
    expect(stored.text).not.toContain(token);
    expect(stored.html).not.toContain(token);
    expect(stored.text).toContain('token=[redacted]');
  });
});

describe('setting a password through a link', { timeout: 60_000 }, () => {
  it('refuses the second use of one link even after both requests found it unused', async () => {
    const { setUserPassword } = await import('../../src/services/identity/password-tokens');
    const { id, token } = await invite();
    const row = await env.CONTROL_DB.prepare('SELECT id FROM password_tokens WHERE user_id = ?').bind(id).first<{ id: number }>();
    const control = createDb(env.CONTROL_DB);
    expect(token).toHaveLength(43);
    await setUserPassword(control, { id }, 'the first long password', { viaToken: row!.id });
    await expect(setUserPassword(control, { id }, 'the second long password', { viaToken: row!.id })).rejects.toMatchObject({
      status: 409,
    });
    const { verifyPassword } = await import('../../src/services/identity/passwords');
    const stored = await env.CONTROL_DB.prepare('SELECT password_hash FROM users WHERE id = ?').bind(id).first<{ password_hash: string }>();
    expect((await verifyPassword('the first long password', stored!.password_hash)).ok).toBe(true);
  });
});
