// require_email_2fa: a 6-digit code emailed, valid 10 minutes, limited attempts, before the form opens.
import { describe, expect, it } from 'vitest';
import { api, shardOf } from '../helpers';
import { messagesTo, page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';

async function twoFactor() {
  return signingFixture({ preferences: { require_email_2fa: true }, fields: [{ name: 'Name', type: 'text' }] });
}

async function codeFor(email: string): Promise<string> {
  const mails = await messagesTo(email, 'verification_code');
  return /\b(\d{6})\b/.exec(mails.at(-1)!.text)![1];
}

function cookieOf(res: { headers: Headers }): string {
  return res.headers.get('Set-Cookie')!.split(';')[0];
}

describe('email verification', () => {
  it('shows the verification page instead of the form and does not mark the submitter opened', async () => {
    const f = await twoFactor();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.text).toContain('id="verify"');
    expect(res.text).not.toContain('"page":"form"');
    expect((await submitterRow(f.submitters[0].id)).status).toBe('sent');
  });

  it('refuses the form routes until verified', async () => {
    const f = await twoFactor();
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: {} } });
    expect(res.status).toBe(403);
    expect((await page('POST', `/s/${f.submitters[0].slug}/open`, { body: {} })).status).toBe(403);
    expect((await submitterRow(f.submitters[0].id)).status).toBe('sent');
    const doc = await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}`);
    expect(doc.status).toBe(403);
  });

  it('emails a code, stores only its hash, and a right code opens the form in that browser with email_2fa', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    expect((await page('POST', `/s/${slug}/verification`, { body: {} })).status).toBe(200);
    const code = await codeFor(f.submitters[0].email);
    const stored = await (await shardOf(f.account.accountId))
      .prepare('SELECT code_hash FROM signing_verifications WHERE submitter_id = ?')
      .bind(f.submitters[0].id)
      .first<{ code_hash: string }>();
    expect(stored!.code_hash).not.toContain(code);
    const checked = await page('POST', `/s/${slug}/verification/check`, { body: { code } });
    expect(checked.status).toBe(200);
    expect(checked.headers.get('Set-Cookie')).toMatch(/HttpOnly/);
    const form = await api('GET', `/s/${slug}`, { headers: { Cookie: cookieOf(checked) } });
    expect(form.text).toContain('"page":"form"');
    await acceptDisclosure(slug, { Cookie: cookieOf(checked) });
    const done = await page('POST', `/s/${slug}/submit`, {
      body: { values: { [f.field('Name')]: 'x' } },
      headers: { Cookie: cookieOf(checked) },
    });
    expect(done.status).toBe(200);
    expect((await submitterRow(f.submitters[0].id)).verification_method).toBe('email_2fa');
  });

  it('refuses a wrong code, saying how many attempts are left, and locks the code after 5', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const code = await codeFor(f.submitters[0].email);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await page('POST', `/s/${slug}/verification/check`, { body: { code: wrong } });
    expect(first.status).toBe(422);
    expect(first.json.error).toBe('That code is not right; 4 attempts left.');
    for (let i = 0; i < 4; i += 1) await page('POST', `/s/${slug}/verification/check`, { body: { code: wrong } });
    const locked = await page('POST', `/s/${slug}/verification/check`, { body: { code } });
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe('Too many wrong codes; request a new code.');
  });

  it('refuses an expired code', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const code = await codeFor(f.submitters[0].email);
    await (await shardOf(f.account.accountId)).prepare("UPDATE signing_verifications SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    const res = await page('POST', `/s/${slug}/verification/check`, { body: { code } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('This code has expired; request a new one.');
  });

  it('sends at most 5 codes an hour per link', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    for (let i = 0; i < 5; i += 1) expect((await page('POST', `/s/${slug}/verification`, { body: {} })).status).toBe(200);
    const res = await page('POST', `/s/${slug}/verification`, { body: {} });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('600');
  });

  it('does not accept a session cookie of another link', async () => {
    const f = await twoFactor();
    const other = await twoFactor();
    await page('POST', `/s/${other.submitters[0].slug}/verification`, { body: {} });
    const checked = await page('POST', `/s/${other.submitters[0].slug}/verification/check`, {
      body: { code: await codeFor(other.submitters[0].email) },
    });
    const stolen = cookieOf(checked).replace(other.submitters[0].slug, f.submitters[0].slug);
    const res = await api('GET', `/s/${f.submitters[0].slug}`, { headers: { Cookie: stolen } });
    expect(res.text).toContain('id="verify"');
  });
});
