// require_phone_2fa and send_whatsapp (issue 31 › 7): a 6-digit code sent to the signer's phone by SMS, or
// by WhatsApp through the same Twilio-compatible API, before the form opens, with the email code's rules;
// the messages the transport took and the clicks on their links in the audit trail.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/index';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { findSubmissionById, listSubmissionEvents } from '../../src/db/queries/submissions';
import { getMessage } from '../../src/db/queries/messages';
import { auditTrailFor } from '../../src/services/sealing/audit-trail';
import { deliverMessage } from '../../src/services/mail/deliver';
import { loadScope } from '../../src/services/submissions/submission-scope';
import { api, shardOf } from '../helpers';
import { acceptDisclosure, eventsOf, page, signingFixture, submitterRow } from './fixtures';
import { rowsOnAllShards } from '../submission-fixtures';

/** A number no other test uses: the Twilio imitation is read by recipient. */
function newPhone(): string {
  return `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
}

type Signer = { phone?: string; require_phone_2fa?: boolean; send_whatsapp?: boolean; send_sms?: boolean };

async function phoneFixture(options: { template?: Record<string, unknown>; signer?: Signer } = {}) {
  const phone = options.signer?.phone ?? newPhone();
  const f = await signingFixture({
    preferences: options.template ?? { require_phone_2fa: true },
    fields: [{ name: 'Name', type: 'text' }],
    submitters: [{ email: `phone-${phone.slice(1)}@example.com`, name: 'Pat', ...options.signer, phone }],
  });
  return { ...f, phone, slug: f.submitters[0].slug };
}

type MessageRow = { id: number; channel: string; recipient: string; text: string; status: string };

async function messagesToPhone(phone: string, kind: string): Promise<MessageRow[]> {
  return rowsOnAllShards<MessageRow>(
    'SELECT id, channel, recipient, text, status FROM messages WHERE recipient = ? AND kind = ? ORDER BY id',
    phone,
    kind,
  );
}

async function latestCode(phone: string): Promise<string> {
  const texts = await messagesToPhone(phone, 'verification_code');
  return /\b(\d{6})\b/.exec(texts.at(-1)!.text)![1];
}

async function attemptsOf(accountId: number, submitterId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare('SELECT attempts FROM signing_verifications WHERE submitter_id = ? ORDER BY id DESC')
    .bind(submitterId)
    .first<{ attempts: number }>();
  return row!.attempts;
}

async function trailOf(accountId: number, submitterId: number, action: string): Promise<Record<string, unknown>[]> {
  const rows = await (await shardOf(accountId))
    .prepare('SELECT data FROM submission_events WHERE submitter_id = ? AND action = ? ORDER BY id')
    .bind(submitterId, action)
    .all<{ data: string }>();
  return rows.results.map((r) => JSON.parse(r.data));
}

function cookieOf(res: { headers: Headers }): string {
  return res.headers.get('Set-Cookie')!.split(';')[0];
}

const twilioEnv = () => ({
  ...env,
  TWILIO_ACCOUNT_SID: 'AC31',
  TWILIO_AUTH_TOKEN: 'secret',
  TWILIO_FROM: '+15550000031',
  TWILIO_API_BASE: env.SMS_PROVIDER_URL,
});

/**
 * Delivers a message through the Twilio imitation. The test queue hands every message to the development
 * outbox first; once it has, the row is queued again for the Twilio transport.
 */
async function deliverByTwilio(accountId: number, id: number) {
  const shard = await shardOf(accountId);
  for (let i = 0; i < 50; i += 1) {
    const row = await shard.prepare('SELECT status FROM messages WHERE id = ?').bind(id).first<{ status: string }>();
    if (row!.status === 'sent') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await shard.prepare("UPDATE messages SET status = 'queued' WHERE id = ?").bind(id).run();
  return deliverMessage(createDb(shard), twilioEnv(), id);
}

async function receivedBy(to: string): Promise<{ path: string; form: Record<string, string> }[]> {
  return (await fetch(`${env.SMS_PROVIDER_URL}/received?to=${encodeURIComponent(to)}`)).json();
}

describe('creating a submission that asks for a phone code', () => {
  it('refuses a signer without a phone when the template has require_phone_2fa, and creates nothing', async () => {
    const f = await phoneFixture();
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: { template_id: f.templateId, submitters: [{ role: 'First Party', email: 'nophone@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'submitters[0]: the signer must confirm a code sent to their phone before the form opens (require_phone_2fa); add phone.',
    );
    const listed = await api('GET', '/api/submissions', { token: f.account.token });
    expect(listed.json.data.map((s: { id: number }) => s.id)).toEqual([f.submissionId]);
  });

  it('refuses a submitter asking for a phone code or WhatsApp without a phone', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: {
        template_id: f.templateId,
        submitters: [{ role: 'First Party', email: 'nophone2@example.com', require_phone_2fa: true, send_whatsapp: true }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'submitters[0]: send_whatsapp needs a phone number.',
      'submitters[0]: the signer must confirm a code sent to their phone before the form opens (require_phone_2fa); add phone.',
    ]);
  });

  it('returns the submitter preferences it stored', async () => {
    const f = await phoneFixture({ template: {}, signer: { require_phone_2fa: true, send_whatsapp: true } });
    const shown = await api('GET', `/api/submitters/${f.submitters[0].id}`, { token: f.account.token });
    expect(shown.json).toMatchObject({ phone: f.phone, require_phone_2fa: true, send_whatsapp: true });
  });
});

describe('the phone code', () => {
  it('asks for a code texted to the phone before the form, and a right code opens it with sms_2fa', async () => {
    const f = await phoneFixture();
    const shown = await api('GET', `/s/${f.slug}`);
    expect(shown.text).toContain('Verify your phone');
    expect(shown.text).toContain(`${f.phone.slice(0, 2)}${'•'.repeat(f.phone.length - 4)}${f.phone.slice(-2)}`);
    expect(shown.text).not.toContain(f.phone);
    expect((await page('POST', `/s/${f.slug}/open`, { body: {} })).status).toBe(403);

    expect((await page('POST', `/s/${f.slug}/verification`, { body: {} })).status).toBe(200);
    const [sent] = await messagesToPhone(f.phone, 'verification_code');
    expect(sent.channel).toBe('sms');
    expect(sent.text).toMatch(/verification code is \d{6}\. It expires in 10 minutes\./);
    const checked = await page('POST', `/s/${f.slug}/verification/check`, { body: { code: await latestCode(f.phone) } });
    expect(checked.status).toBe(200);
    const cookie = cookieOf(checked);
    expect((await api('GET', `/s/${f.slug}`, { headers: { Cookie: cookie } })).text).toContain('"page":"form"');
    await acceptDisclosure(f.slug, { Cookie: cookie });
    const done = await page('POST', `/s/${f.slug}/submit`, { body: { values: { [f.field('Name')]: 'Pat' } }, headers: { Cookie: cookie } });
    expect(done.status).toBe(200);
    expect((await submitterRow(f.submitters[0].id)).verification_method).toBe('sms_2fa');
    const [complete] = await eventsOf(f.account.accountId, 'signing.complete');
    expect(complete.data.identity).toMatchObject({ level: 'ses', provider: 'sms', method: 'sms_2fa' });
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'verification_code_sent')).toEqual([{ channel: 'sms' }]);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'phone_verified')).toEqual([{ channel: 'sms' }]);
  });

  it('is asked for by the submitter preference alone', async () => {
    const f = await phoneFixture({ template: {}, signer: { require_phone_2fa: true } });
    expect((await api('GET', `/s/${f.slug}`)).text).toContain('Verify your phone');
    expect((await page('PUT', `/s/${f.slug}/values`, { body: { values: {} } })).json.error).toBe(
      'Verify your phone with the code we send before opening this form.',
    );
  });

  it('counts two wrong codes sent at the same moment as two attempts, and locks the code after 5', async () => {
    const f = await phoneFixture();
    await page('POST', `/s/${f.slug}/verification`, { body: {} });
    const code = await latestCode(f.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const pair = await Promise.all([0, 1].map(() => page('POST', `/s/${f.slug}/verification/check`, { body: { code: wrong } })));
    expect(pair.map((r) => r.status)).toEqual([422, 422]);
    expect(pair.map((r) => r.json.error).sort()).toEqual([
      'That code is not right; 3 attempts left.',
      'That code is not right; 4 attempts left.',
    ]);
    expect(await attemptsOf(f.account.accountId, f.submitters[0].id)).toBe(2);
    const three = await Promise.all([0, 1, 2].map(() => page('POST', `/s/${f.slug}/verification/check`, { body: { code: wrong } })));
    expect(three.map((r) => r.status)).toEqual([422, 422, 422]);
    const locked = await page('POST', `/s/${f.slug}/verification/check`, { body: { code } });
    expect(locked.status).toBe(429);
    expect(await attemptsOf(f.account.accountId, f.submitters[0].id)).toBe(5);
  });

  it('refuses a code after its 10 minutes', async () => {
    const f = await phoneFixture();
    await page('POST', `/s/${f.slug}/verification`, { body: {} });
    const code = await latestCode(f.phone);
    await (await shardOf(f.account.accountId))
      .prepare("UPDATE signing_verifications SET expires_at = '2000-01-01T00:00:00.000Z' WHERE submitter_id = ?")
      .bind(f.submitters[0].id)
      .run();
    const res = await page('POST', `/s/${f.slug}/verification/check`, { body: { code } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('This code has expired; request a new one.');
  });

  it('sends at most 5 codes an hour, concurrent requests included', async () => {
    const f = await phoneFixture();
    const results = await Promise.all(Array.from({ length: 8 }, () => page('POST', `/s/${f.slug}/verification`, { body: {} })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0].headers.get('Retry-After')).toBe('600');
    expect(await messagesToPhone(f.phone, 'verification_code')).toHaveLength(5);
  });

  it('does not take an email code session for a form that now asks for the phone', async () => {
    const f = await phoneFixture({ template: { require_email_2fa: true } });
    await page('POST', `/s/${f.slug}/verification`, { body: {} });
    const [mail] = await rowsOnAllShards<{ text: string }>(
      "SELECT text FROM messages WHERE submitter_id = ? AND kind = 'verification_code' AND channel = 'email'",
      f.submitters[0].id,
    );
    const checked = await page('POST', `/s/${f.slug}/verification/check`, { body: { code: /\b(\d{6})\b/.exec(mail.text)![1] } });
    const cookie = cookieOf(checked);
    expect((await api('GET', `/s/${f.slug}`, { headers: { Cookie: cookie } })).text).toContain('"page":"form"');
    const updated = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { require_phone_2fa: true },
    });
    expect(updated.status).toBe(200);
    const again = await api('GET', `/s/${f.slug}`, { headers: { Cookie: cookie } });
    expect(again.text).toContain('Verify your phone');
    expect(again.text).not.toContain('"page":"form"');
  });
});

describe('WhatsApp', () => {
  it('sends the code by WhatsApp through the Twilio-compatible API with whatsapp: addresses, and the trail records the transport taking it', async () => {
    const f = await phoneFixture({ signer: { send_whatsapp: true } });
    expect((await api('GET', `/s/${f.slug}`)).text).toContain('Send me a code on WhatsApp');
    await page('POST', `/s/${f.slug}/verification`, { body: {} });
    const [message] = await messagesToPhone(f.phone, 'verification_code');
    expect(message.channel).toBe('whatsapp');
    const code = await latestCode(f.phone);
    expect(await deliverByTwilio(f.account.accountId, message.id)).toEqual({ status: 'sent' });
    const received = await receivedBy(`whatsapp:${f.phone}`);
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/2010-04-01/Accounts/AC31/Messages.json');
    expect(received[0].form.From).toBe('whatsapp:+15550000031');
    expect(received[0].form.Body).toContain(code);
    const stored = (await getMessage(createDb(await shardOf(f.account.accountId)), message.id))!;
    expect(stored.text).not.toContain(code);
    const accepted = await trailOf(f.account.accountId, f.submitters[0].id, 'message_accepted');
    expect(accepted).toContainEqual({
      channel: 'whatsapp',
      kind: 'verification_code',
      transport: 'twilio',
      provider_id: stored.providerId,
    });
    expect(stored.providerId).toMatch(/^SM/);

    const checked = await page('POST', `/s/${f.slug}/verification/check`, { body: { code } });
    expect(checked.status).toBe(200);
    expect((await submitterRow(f.submitters[0].id)).verification_method).toBe('whatsapp_2fa');
  });

  it('invites by WhatsApp with a link that says so', async () => {
    const f = await phoneFixture({ template: {}, signer: { send_whatsapp: true } });
    const [invitation] = await messagesToPhone(f.phone, 'invitation');
    expect(invitation.channel).toBe('whatsapp');
    expect(invitation.text).toContain(`/s/${f.slug}?via=whatsapp`);
    expect((await submitterRow(f.submitters[0].id)).status).toBe('sent');
  });
});

describe('clicks and deliveries in the audit trail', () => {
  it('records the click on an SMS link reported by the page, and prints both on the audit page', async () => {
    const f = await phoneFixture({ template: {}, signer: { send_sms: true } });
    const [invitation] = await messagesToPhone(f.phone, 'invitation');
    expect(invitation.text).toContain(`/s/${f.slug}?via=sms`);
    expect((await deliverByTwilio(f.account.accountId, invitation.id)).status).toBe('sent');
    expect((await receivedBy(f.phone))[0].form.From).toBe('+15550000031');

    const clicked = await page('POST', `/s/${f.slug}/link_opened`, { body: { channel: 'sms' } });
    expect(clicked.status).toBe(200);
    expect(clicked.json).toEqual({ recorded: true });
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'link_clicked')).toEqual([{ channel: 'sms' }]);

    const db = createDb(await shardOf(f.account.accountId));
    const scope = await loadScope(db, (await findSubmissionById(db, f.submissionId))!);
    const trail = auditTrailFor(scope, await listSubmissionEvents(db, f.submissionId), 'contract', 'Signing');
    const details = trail.events.map((e) => `${e.event}: ${e.detail ?? ''}`);
    expect(details).toContain('link clicked: Opened the signing link from the SMS message');
    expect(details.some((d) => /^message accepted: SMS invitation accepted by twilio \(SM\d+\)$/.test(d))).toBe(true);
  });

  it('refuses a channel that is not a phone channel, and a page from another origin', async () => {
    const f = await phoneFixture({ template: {} });
    expect((await page('POST', `/s/${f.slug}/link_opened`, { body: { channel: 'email' } })).status).toBe(422);
    const foreign = await api('POST', `/s/${f.slug}/link_opened`, { body: { channel: 'sms' }, headers: { Origin: 'https://evil.test' } });
    expect(foreign.status).toBe(403);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'link_clicked')).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('declares the phone settings where the API takes and returns them, and the click route with its channels', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    const schemas = doc.components.schemas;
    for (const name of ['SubmitterInput', 'UpdateSubmitter', 'Submitter']) {
      expect(Object.keys(schemas[name].properties), name).toEqual(expect.arrayContaining(['require_phone_2fa', 'send_whatsapp']));
    }
    expect(schemas.Submitter.required).toEqual(expect.arrayContaining(['require_phone_2fa', 'send_whatsapp']));
    expect(Object.keys(schemas.TemplatePreferences.properties)).toContain('require_phone_2fa');
    const click = doc.paths['/s/{slug}/link_opened'].post;
    expect(click.requestBody.content['application/json'].schema.properties.channel.enum).toEqual(['sms', 'whatsapp']);
    expect(Object.keys(click.responses).sort()).toEqual(['200', '400', '403', '404', '413', '422', '429']);
    expect(doc.paths['/s/{slug}/verification'].post.description).toContain('require_phone_2fa');
  });
});

type Callback = { url: string; params: Record<string, string>; signature: string };

/** The status callbacks the Twilio imitation made for messages to `to`, signed as Twilio signs them. */
async function callbacksFor(to: string): Promise<Callback[]> {
  return (await fetch(`${env.SMS_PROVIDER_URL}/callbacks?to=${encodeURIComponent(to)}`)).json();
}

/**
 * Hands a callback to the Worker as the provider posts it, with the SMS auth token the Worker verifies
 * against (the imitation signed with the one the message was sent with; workerd tests cannot be
 * reached over HTTP from outside, so the test carries the request).
 */
async function postCallback({ url, params, signature }: Callback, authToken = 'secret') {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
      body: new URLSearchParams(params),
    }),
    { ...twilioEnv(), TWILIO_AUTH_TOKEN: authToken },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A code sent to a fresh signer by SMS through the Twilio imitation: the fixture, the message row and its stored sid. */
async function sentBySms(delivery?: { delivery: string; error_code?: string }) {
  const f = await phoneFixture();
  if (delivery) {
    await fetch(`${env.SMS_PROVIDER_URL}/control`, { method: 'POST', body: JSON.stringify({ to: f.phone, ...delivery }) });
  }
  await page('POST', `/s/${f.slug}/verification`, { body: {} });
  const [message] = await messagesToPhone(f.phone, 'verification_code');
  expect(await deliverByTwilio(f.account.accountId, message.id)).toEqual({ status: 'sent' });
  const stored = (await getMessage(createDb(await shardOf(f.account.accountId)), message.id))!;
  return { f, message, sid: stored.providerId! };
}

describe('delivery status callbacks (Twilio StatusCallback)', () => {
  it('sends each message with its StatusCallback, and the imitation’s signed delivered callback lands in the trail', async () => {
    const { f, message, sid } = await sentBySms();
    const [sent] = await receivedBy(f.phone);
    expect(sent.form.StatusCallback).toBe(`https://api.test/api/sms/status/${f.account.accountId}/${message.id}`);
    const callbacks = await callbacksFor(f.phone);
    expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const callback of callbacks) expect((await postCallback(callback)).status).toBe(200);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'message_delivered')).toEqual([
      { channel: 'sms', kind: 'verification_code', provider_id: sid, status: 'delivered' },
    ]);
    // `sent` is not final: it records nothing.
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'message_failed')).toEqual([]);
  });

  it('records a failed message with its error code, once however often the callback repeats (twice at once included)', async () => {
    const { f, sid } = await sentBySms({ delivery: 'undelivered', error_code: '30003' });
    const final = (await callbacksFor(f.phone)).find((c) => c.params.MessageStatus === 'undelivered')!;
    const first = await postCallback(final);
    expect(first).toEqual({ status: 200, json: { received: true, outcome: 'recorded' } });
    const repeats = await Promise.all([postCallback(final), postCallback(final)]);
    expect(repeats.map((r) => r.json.outcome)).toEqual(['duplicate', 'duplicate']);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'message_failed')).toEqual([
      { channel: 'sms', kind: 'verification_code', provider_id: sid, status: 'undelivered', error_code: '30003' },
    ]);
    // The sealed audit page says so.
    const db = createDb(await shardOf(f.account.accountId));
    const scope = await loadScope(db, (await findSubmissionById(db, f.submissionId))!);
    const trail = auditTrailFor(scope, await listSubmissionEvents(db, f.submissionId), 'contract', 'Signing');
    expect(trail.events.map((e) => `${e.event}: ${e.detail ?? ''}`)).toContain(
      `message not delivered: SMS message not delivered: undelivered, error 30003, as its provider reported (${sid})`,
    );
  });

  it('refuses a callback whose signature does not match (403) and records nothing', async () => {
    const { f } = await sentBySms();
    const delivered = (await callbacksFor(f.phone)).find((c) => c.params.MessageStatus === 'delivered')!;
    const forged = { ...delivered, params: { ...delivered.params, MessageStatus: 'failed', ErrorCode: '30008' } };
    const refused = await postCallback(forged);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(
      'The X-Twilio-Signature header does not match this request and the SMS auth token; nothing was recorded.',
    );
    // Signed with another auth token: refused too.
    expect((await postCallback(delivered, 'another-token')).status).toBe(403);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'message_failed')).toEqual([]);
    expect(await trailOf(f.account.accountId, f.submitters[0].id, 'message_delivered')).toEqual([]);
  });
});
