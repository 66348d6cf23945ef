// An admin setting a user's email (docs/identity.md › Changing an email): pending until the new address
// confirms through the link sent to it; the old email keeps signing in until then.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, addUser, type TestAccount } from '../helpers';
import { messagesTo } from '../signing/fixtures';
import { emailOf, getPage, givePassword, PASSWORD, postForm, sessionsOf } from './sign-in-fixtures';

let counter = 0;
const freshEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.com`;

/** An account whose admin is signed-in-able, and a member with a password. */
async function team(): Promise<{ admin: TestAccount; member: TestAccount; memberEmail: string }> {
  const admin = await createAccount();
  const member = await addUser(admin.accountId, 'editor');
  await givePassword(member.userId);
  return { admin, member, memberEmail: await emailOf(member.userId) };
}

const setEmail = (admin: TestAccount, userId: number, email: string) =>
  api('PUT', `/api/users/${userId}`, { token: admin.token, body: { email } });

async function confirmationLink(email: string): Promise<{ url: string; token: string }> {
  const mails = await messagesTo(email, 'email_change');
  const match = /https:\/\/api\.test\/email\/confirm\?token=([0-9A-Za-z]{43})/.exec(mails[mails.length - 1].text)!;
  return { url: match[0].replace('https://api.test', ''), token: match[1] };
}

async function row(userId: number) {
  return env.CONTROL_DB.prepare('SELECT email, pending_email FROM users WHERE id = ?')
    .bind(userId)
    .first<{ email: string; pending_email: string | null }>();
}

describe('an admin changing a user’s email', { timeout: 60_000 }, () => {
  it('leaves it pending and the old email signing in until the new address confirms', async () => {
    const { admin, member, memberEmail } = await team();
    const newEmail = freshEmail('new');
    const res = await setEmail(admin, member.userId, newEmail);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ email: memberEmail, pending_email: newEmail });
    expect(await row(member.userId)).toEqual({ email: memberEmail, pending_email: newEmail });
    expect((await postForm('/login', { email: memberEmail, password: PASSWORD })).status).toBe(303);
    expect((await postForm('/login', { email: newEmail, password: PASSWORD })).status).toBe(401);
    expect(await messagesTo(newEmail, 'email_change')).toHaveLength(1);
  });

  it('makes the new address the email once the link is opened and confirmed; the old one stops', async () => {
    const { admin, member, memberEmail } = await team();
    const newEmail = freshEmail('confirmed');
    await setEmail(admin, member.userId, newEmail);
    const link = await confirmationLink(newEmail);
    const shown = await getPage(link.url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(newEmail);
    expect(await row(member.userId)).toEqual({ email: memberEmail, pending_email: newEmail });
    const confirmed = await postForm('/email/confirm', { token: link.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain(`Your email is now ${newEmail}`);
    expect(await row(member.userId)).toEqual({ email: newEmail, pending_email: null });
    expect((await postForm('/login', { email: newEmail, password: PASSWORD })).status).toBe(303);
    expect((await postForm('/login', { email: memberEmail, password: PASSWORD })).status).toBe(401);
    expect((await postForm('/email/confirm', { token: link.token })).status).toBe(410);
  });

  it('does not let another tenant attach a password it knows to someone else’s address', async () => {
    const victim = await createAccount();
    await givePassword(victim.userId);
    const victimEmail = await emailOf(victim.userId);
    const attacker = await createAccount();
    const puppet = await addUser(attacker.accountId, 'editor');
    await env.CONTROL_DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
      .bind(
        (await env.CONTROL_DB.prepare('SELECT password_hash FROM users WHERE id = ?')
          .bind(victim.userId)
          .first<{ password_hash: string }>())!.password_hash,
        puppet.userId,
      )
      .run();
    const puppetEmail = await emailOf(puppet.userId);
    expect((await setEmail(attacker, puppet.userId, victimEmail.toUpperCase())).status).toBe(200);
    expect((await row(puppet.userId))!.email).toBe(puppetEmail);
    // The victim's sign-in reaches only their own user: no account chooser with the attacker's account.
    const res = await postForm('/login', { email: victimEmail, password: PASSWORD });
    expect(res.status).toBe(303);
    expect((await sessionsOf(victim.userId)).length).toBe(1);
    expect(await sessionsOf(puppet.userId)).toEqual([]);
  });

  it('voids the earlier link when the email is changed again', async () => {
    const { admin, member } = await team();
    const first = freshEmail('first');
    await setEmail(admin, member.userId, first);
    const firstLink = await confirmationLink(first);
    const second = freshEmail('second');
    await setEmail(admin, member.userId, second);
    expect((await getPage(firstLink.url)).status).toBe(410);
    expect((await postForm('/email/confirm', { token: firstLink.token })).status).toBe(410);
    const secondLink = await confirmationLink(second);
    expect((await postForm('/email/confirm', { token: secondLink.token })).status).toBe(200);
    expect((await row(member.userId))!.email).toBe(second);
  });

  it('refuses the link with 409 and a sentence once another user of the account has the address', async () => {
    const { admin, member } = await team();
    const wanted = freshEmail('wanted');
    await setEmail(admin, member.userId, wanted);
    const link = await confirmationLink(wanted);
    const other = await addUser(admin.accountId, 'viewer');
    await env.CONTROL_DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(wanted, other.userId).run();
    const res = await postForm('/email/confirm', { token: link.token });
    expect(res.status).toBe(409);
    expect(res.text).toContain('Another user of this account has that email now');
    expect((await row(member.userId))!.pending_email).toBe(wanted);
  });

  it('changes nothing else when the email sent is the current one', async () => {
    const { admin, member, memberEmail } = await team();
    const res = await setEmail(admin, member.userId, memberEmail.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ email: memberEmail, pending_email: null });
  });
});
