// Signer routes are bounded (issue 21 › 5): /s/* takes the slug as its only credential, so what one
// link (or one client) can make the service do is capped.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { getMessage } from '../../src/db/queries/messages';
import { deliverMessage } from '../../src/services/mail/deliver';
import { isEmailAddress, MAX_EMAIL_LENGTH, PRESET_PATTERNS } from '../../src/shared/field-values';
import { api, shardOf, clientAddress } from '../helpers';
import { messagesTo, page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';

async function twoFactor() {
  return signingFixture({ preferences: { require_email_2fa: true }, fields: [{ name: 'Name', type: 'text' }] });
}

async function latestCode(email: string): Promise<string> {
  const mails = await messagesTo(email, 'verification_code');
  return /\b(\d{6})\b/.exec(mails.at(-1)!.text)![1];
}

/**
 * An address of `length` characters that the old /^[^\s@]+@[^\s@]+\.[^\s@]+$/ took quadratic time to
 * refuse (every dot is a split it tried, each rescanning to the last @): 64 KB took ~17 s.
 */
function hugeAddress(length: number): string {
  return `a@${'.'.repeat(length - 3)}@`;
}

describe('the email verification code', () => {
  it('compares at most 5 of 20 concurrent wrong guesses: each compared one is told it is wrong, the rest are refused unread', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const code = await latestCode(f.submitters[0].email);
    const wrong = code === '000000' ? '111111' : '000000';
    const results = await Promise.all(
      Array.from({ length: 20 }, () => page('POST', `/s/${slug}/verification/check`, { body: { code: wrong } })),
    );
    const compared = results.filter((r) => r.status === 422);
    expect(compared).toHaveLength(5);
    expect(compared.every((r) => String(r.json.error).startsWith('That code is not right'))).toBe(true);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    const row = await (await shardOf(f.account.accountId))
      .prepare('SELECT attempts FROM signing_verifications WHERE submitter_id = ?')
      .bind(f.submitters[0].id)
      .first<{ attempts: number }>();
    expect(row!.attempts).toBe(5);
  });

  it('counts a right code as an attempt too, so a right code after 4 wrong ones still opens but is the last', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const code = await latestCode(f.submitters[0].email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) await page('POST', `/s/${slug}/verification/check`, { body: { code: wrong } });
    expect((await page('POST', `/s/${slug}/verification/check`, { body: { code } })).status).toBe(200);
    const row = await (await shardOf(f.account.accountId))
      .prepare('SELECT attempts FROM signing_verifications WHERE submitter_id = ?')
      .bind(f.submitters[0].id)
      .first<{ attempts: number }>();
    expect(row!.attempts).toBe(5);
  });

  it('sends at most 5 codes an hour even when 20 requests for a code arrive at once', async () => {
    const f = await twoFactor();
    const slug = f.submitters[0].slug;
    const results = await Promise.all(Array.from({ length: 20 }, () => page('POST', `/s/${slug}/verification`, { body: {} })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(15);
    expect(refused[0].headers.get('Retry-After')).toBe('600');
    expect(refused[0].json.error).toBe('Too many codes were sent for this link in the last hour; try again later.');
    expect(await messagesTo(f.submitters[0].email, 'verification_code')).toHaveLength(5);
  });

  it('removes the code from the stored message once the email is delivered', async () => {
    const f = await twoFactor();
    await page('POST', `/s/${f.submitters[0].slug}/verification`, { body: {} });
    const code = await latestCode(f.submitters[0].email);
    const shard = await shardOf(f.account.accountId);
    const db = createDb(shard);
    const { id } = (await shard
      .prepare("SELECT id FROM messages WHERE kind = 'verification_code' AND submitter_id = ?")
      .bind(f.submitters[0].id)
      .first<{ id: number }>())!;
    // The test queue already 'delivered' it to the development outbox, which keeps the code (it is the
    // inbox there); queue it again for the production email transport.
    await shard.prepare("UPDATE messages SET status = 'queued' WHERE id = ?").bind(id).run();
    const outcome = await deliverMessage(db, { ...env, MAIL_TRANSPORT: 'cloudflare', MAIL_FROM: 'no-reply@sign.test' }, id);
    expect(outcome).toEqual({ status: 'sent' });
    const stored = (await getMessage(db, id))!;
    expect(stored.status).toBe('sent');
    expect(stored.text).not.toContain(code);
    expect(stored.html).not.toContain(code);
    expect(stored.text).toContain('[redacted]');
  });
});

describe('the email syntax check', () => {
  it('refuses an address longer than 254 characters before looking at its shape', () => {
    const long = `${'a'.repeat(MAX_EMAIL_LENGTH)}@example.com`;
    expect(isEmailAddress(long)).toBe(false);
    expect(PRESET_PATTERNS.email.pattern.test(long)).toBe(false);
    expect(PRESET_PATTERNS.email.pattern.test('ann@example.com')).toBe(true);
  });

  it('accepts the same shapes as before: one @, a dot inside the domain, no whitespace', () => {
    expect(isEmailAddress('a@b.c')).toBe(true);
    expect(isEmailAddress('first.last+tag@sub.example.co.uk')).toBe(true);
    for (const bad of ['', '@b.c', 'a@.c', 'a@b.', 'a@bc', 'a@@b.c', 'a@b@c.d', 'a b@c.d', 'a@b.c\n'])
      expect(isEmailAddress(bad)).toBe(false);
  });

  // 64 KB took ~4 s here and ~17 s in Node; 128 KB takes the old pattern well past any test's timeout.
  it('answers 422 to a 128 KB email address of a submitter', async () => {
    const f = await signingFixture();
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: { template_id: f.templateId, submitters: [{ role: 'First Party', email: hugeAddress(128 * 1024) }] },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json)).toContain('is not a valid email address.');
  });

  it('answers a 64 KB email address on delegation at once, by the body cap', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: hugeAddress(64 * 1024), name: 'X' } });
    expect(res.status).toBe(413);
  });
});

describe('delegation and witness invitations', () => {
  const witnessTemplate = {
    roles: ['Signer', 'Witness'],
    fields: [
      { name: 'Signer name', type: 'text', role: 'Signer' },
      { name: 'Witness signature', type: 'signature', role: 'Witness' },
    ],
    submitters: [
      { email: 'signer@example.com', name: 'Sig', role: 'Signer' },
      { email: 'placeholder-witness@example.com', name: 'To be named', role: 'Witness' },
    ],
  };
  const typed = 'IT Security: your mailbox expires, sign in at evil.example';

  it('refuses a sixth delegation along one chain with a sentence', async () => {
    const f = await signingFixture({ submitters: [{ email: 'holder0@example.com', name: 'Holder' }] });
    const id = f.submitters[0].id;
    for (let i = 1; i <= 5; i += 1) {
      const { slug } = await submitterRow(id);
      const res = await page('POST', `/s/${slug}/delegate`, { body: { email: `holder${i}@example.com` } });
      expect(res.status).toBe(200);
    }
    const { slug } = await submitterRow(id);
    const res = await page('POST', `/s/${slug}/delegate`, { body: { email: 'holder6@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'This form has already been delegated 5 times, the most allowed; sign it yourself or ask the sender to change the signer.',
    );
    expect((await submitterRow(id)).email).toBe('holder5@example.com');
  });

  it('refuses a sixth witness invitation by the same signer with a sentence', async () => {
    const f = await signingFixture(witnessTemplate);
    const signer = f.submitters[0];
    await acceptDisclosure(signer.slug);
    await page('POST', `/s/${signer.slug}/submit`, { body: { values: { [f.field('Signer name')]: 'Sig' } } });
    for (let i = 1; i <= 5; i += 1) {
      expect((await page('POST', `/s/${signer.slug}/invite_witness`, { body: { email: `witness${i}@example.com` } })).status).toBe(200);
    }
    const res = await page('POST', `/s/${signer.slug}/invite_witness`, { body: { email: 'witness6@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'You have already invited a witness 5 times, the most allowed; ask the sender if the witness must change again.',
    );
    expect(await messagesTo('witness6@example.com')).toHaveLength(0);
  });

  it('greets a delegate by their address, not by the name the delegating signer typed', async () => {
    const f = await signingFixture();
    await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: 'deputy-greeted@example.com', name: typed } });
    const [invitation] = await messagesTo('deputy-greeted@example.com', 'invitation');
    expect(invitation.text).not.toContain(typed);
    expect(invitation.subject).not.toContain(typed);
    expect(invitation.text).toContain('Hello deputy-greeted@example.com,');
    const html = await (await shardOf(f.account.accountId))
      .prepare("SELECT html FROM messages WHERE recipient = 'deputy-greeted@example.com' AND submission_id = ?")
      .bind(f.submissionId)
      .first<{ html: string }>();
    expect(html!.html).not.toContain('IT Security');
  });

  it('greets a witness by their address, not by the name the signer typed', async () => {
    const f = await signingFixture(witnessTemplate);
    await acceptDisclosure(f.submitters[0].slug);
    await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Signer name')]: 'Sig' } } });
    await page('POST', `/s/${f.submitters[0].slug}/invite_witness`, { body: { email: 'witness-greeted@example.com', name: typed } });
    const [invitation] = await messagesTo('witness-greeted@example.com', 'invitation');
    expect(invitation.text).not.toContain(typed);
    expect(invitation.text).toContain('Hello witness-greeted@example.com,');
  });

  it("keeps a delegate's typed name out of the reminders the sender sends later", async () => {
    const f = await signingFixture();
    await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: 'deputy-reminded@example.com', name: typed } });
    expect((await api('POST', `/api/submitters/${f.submitters[0].id}/remind`, { token: f.account.token })).status).toBe(200);
    const [reminder] = await messagesTo('deputy-reminded@example.com', 'reminder');
    expect(reminder.text).not.toContain(typed);
    expect(reminder.text).toContain('Hello deputy-reminded@example.com,');
  });

  it('greets a delegate by name again once the sender sets the name through the API', async () => {
    const f = await signingFixture();
    await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: 'deputy-renamed@example.com', name: typed } });
    expect(
      (await api('PUT', `/api/submitters/${f.submitters[0].id}`, { token: f.account.token, body: { name: 'Dana Deputy' } })).status,
    ).toBe(200);
    expect((await api('POST', `/api/submitters/${f.submitters[0].id}/remind`, { token: f.account.token })).status).toBe(200);
    const [reminder] = await messagesTo('deputy-renamed@example.com', 'reminder');
    expect(reminder.text).toContain('Hello Dana Deputy,');
  });
});

describe('request body caps', () => {
  it('refuses a values body over 1 MB with 413 and a sentence, storing nothing', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    const slug = f.submitters[0].slug;
    const res = await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Name')]: 'x' }, padding: 'p'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe(
      'What the page sent is larger than 1 MB, the most it accepts at once. Use a smaller file or picture and try again.',
    );
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)).toEqual({});
  });

  it('refuses a delegation body over 16 KB with 413', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/delegate`, {
      body: { email: 'deputy@example.com', name: 'n'.repeat(17 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe(
      'What the page sent is larger than 16 KB, the most it accepts at once. Use a smaller file or picture and try again.',
    );
    expect((await submitterRow(f.submitters[0].id)).email).not.toBe('deputy@example.com');
  });

  it('counts a streamed body without Content-Length and refuses it past the cap', async () => {
    const f = await signingFixture();
    const chunk = new TextEncoder().encode(`{"reason":"${'r'.repeat(8 * 1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i += 1) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await SELF.fetch(`https://api.test/s/${f.submitters[0].slug}/decline`, {
      method: 'POST',
      headers: { Origin: 'https://api.test', 'Content-Type': 'application/json', 'CF-Connecting-IP': clientAddress() },
      body: stream,
    });
    expect(response.status).toBe(413);
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('declined');
  });

  it('refuses an upload body over 10 MB before reading its parts', async () => {
    const f = await signingFixture({ fields: [{ name: 'Proof', type: 'file' }] });
    const form = new FormData();
    form.append('field_uuid', f.field('Proof'));
    form.append('file', new File([new Uint8Array(10 * 1024 * 1024 + 128 * 1024)], 'big.pdf'));
    const res = await page('POST', `/s/${f.submitters[0].slug}/attachments`, { body: form });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe(
      'What the page sent is larger than 10 MB, the most it accepts at once. Use a smaller file or picture and try again.',
    );
  });
});

describe('rate limits on /s/*', () => {
  /** `count` requests at most 50 at a time, each refused by the same-origin check (no D1), but counted. */
  async function burst(count: number, slugFor: (i: number) => string, ip: string) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 50) {
      const chunk = Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        api('POST', `/s/${slugFor(i + j)}/open`, { ip, headers: { Origin: 'https://elsewhere.test' } }),
      );
      statuses.push(...(await Promise.all(chunk)).map((r) => r.status));
    }
    return statuses;
  }

  it('answers 429 with Retry-After and a sentence to the 121st request for one link in a minute', async () => {
    const statuses = await burst(120, () => 'RateLimitedLink01', '203.0.113.10');
    expect(statuses.every((s) => s === 403)).toBe(true);
    const res = await api('GET', '/s/RateLimitedLink01', { ip: '203.0.113.11' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    // The signer's sentence (English here: the request asks for no language), not the API's.
    expect(res.json.error).toMatch(/^Too many requests in a short time\. Wait \d+ seconds? and try again\.$/);
  });

  it('answers 429 to the 601st request from one address in a minute, whatever the links', async () => {
    const statuses = await burst(600, (i) => `ManyLinks${i % 6}`, '203.0.113.20');
    expect(statuses.every((s) => s === 403)).toBe(true);
    const res = await api('GET', '/s/AnotherLink', { ip: '203.0.113.20' });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    expect(res.json.error).toMatch(/^Too many requests in a short time\. Wait \d+ seconds? and try again\.$/);
  });

  it('limits one link without refusing the other links of the same address', async () => {
    await burst(121, () => 'RateLimitedLink02', '203.0.113.30');
    const f = await signingFixture();
    expect((await api('GET', `/s/${f.submitters[0].slug}`, { ip: '203.0.113.30' })).status).toBe(200);
    expect((await api('GET', '/s/RateLimitedLink02', { ip: '203.0.113.31' })).status).toBe(429);
  });
});
