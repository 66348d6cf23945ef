import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createDb } from '../../src/db/client';
import { getMessage } from '../../src/db/queries/messages';
import worker from '../../src/index';
import { composeEmail, type MessageContext } from '../../src/services/mail/compose';
import { deliverMessage, MAX_ATTEMPTS } from '../../src/services/mail/deliver';
import { emailMessage, queueMessageInsert, smsMessage } from '../../src/services/mail/outbox';
import type { MessageQueueBody } from '../../src/env';
import { sweepMessages } from '../../src/scheduled/messages-sweep';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { createAccount, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';

/** The database holding the account's messages: its shard. */
const dbOf = async (accountId: number) => createDb(await shardOf(accountId));

function context(overrides: Partial<MessageContext> = {}): MessageContext {
  return {
    branding: { companyName: 'Acme', serviceName: 'Signing Service' },
    submitter: { name: 'Ann', email: 'ann@example.com', link: 'https://sign.test/s/abc123' },
    template: { name: 'NDA' },
    submission: { expireAt: '2026-12-01T00:00:00.000Z' },
    ...overrides,
  };
}

async function storeMessage(accountId: number, row: ReturnType<typeof emailMessage>): Promise<number> {
  const [inserted] = await queueMessageInsert(await dbOf(accountId), { ...row, accountId });
  return inserted.id;
}

const twilioEnv = () => ({
  ...env,
  TWILIO_ACCOUNT_SID: 'AC123',
  TWILIO_AUTH_TOKEN: 'secret',
  TWILIO_FROM: '+15550000000',
  TWILIO_API_BASE: env.SMS_PROVIDER_URL,
});

async function failSms(to: string, status: number, times: number) {
  await fetch(`${env.SMS_PROVIDER_URL}/control`, { method: 'POST', body: JSON.stringify({ to, status, times }) });
}

describe('composing messages', () => {
  it('fills the tokens of a custom reminder and escapes them in the HTML part', () => {
    const email = composeEmail(
      'reminder',
      context({
        submitter: { name: '<b>Ann</b>', email: 'ann@example.com', link: 'https://sign.test/s/abc123' },
        custom: {
          subject: 'Sign {{template.name}} by {{submission.expire_at}}',
          body: 'Hi {{submitter.name}}, <script>x</script> {{submitter.link}} {{unknown.token}}',
        },
      }),
    );
    expect(email.subject).toBe('Sign NDA by 2026-12-01T00:00:00.000Z');
    expect(email.text).toContain('Hi <b>Ann</b>, <script>x</script> https://sign.test/s/abc123 {{unknown.token}}');
    expect(email.html).toContain('Hi &lt;b&gt;Ann&lt;/b&gt;, &lt;script&gt;x&lt;/script&gt;');
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('href="https://sign.test/s/abc123"');
  });

  it('uses the default invitation text with a sign button', () => {
    const email = composeEmail('invitation', context());
    expect(email.subject).toBe('Acme has sent you NDA to sign');
    expect(email.text).toContain('Review and sign: https://sign.test/s/abc123');
  });
});

describe('delivering messages', () => {
  it('keeps development email in the D1 outbox, marked sent', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const id = await storeMessage(a.accountId, emailMessage('invitation', context(), { accountId: a.accountId }));
    expect(await deliverMessage(db, env, id)).toEqual({ status: 'sent' });
    expect(await getMessage(db, id)).toMatchObject({ status: 'sent', transport: 'outbox', attempts: 1, providerId: `outbox-${id}` });
  });

  it('does nothing for a message delivered already', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const id = await storeMessage(a.accountId, emailMessage('invitation', context(), { accountId: a.accountId }));
    await deliverMessage(db, env, id);
    expect(await deliverMessage(db, env, id)).toEqual({ status: 'skipped' });
    expect((await getMessage(db, id))!.attempts).toBe(1);
  });

  it('sends SMS through the Twilio-compatible API with basic auth', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const to = '+15551230001';
    const id = await storeMessage(a.accountId, smsMessage('invitation', context(), to, { accountId: a.accountId }));
    expect(await deliverMessage(db, twilioEnv(), id)).toEqual({ status: 'sent' });
    const received = await (await fetch(`${env.SMS_PROVIDER_URL}/received?to=${encodeURIComponent(to)}`)).json<
      { path: string; authorization: string; form: Record<string, string> }[]
    >();
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(received[0].authorization).toBe(`Basic ${btoa('AC123:secret')}`);
    expect(received[0].form).toEqual({
      To: to,
      From: '+15550000000',
      Body: 'Acme: please review and sign NDA: https://sign.test/s/abc123',
      // The provider reports the message's fate there (issue 31 › 7).
      StatusCallback: `https://api.test/api/sms/status/${a.accountId}/${id}`,
    });
    expect((await getMessage(db, id))!.providerId).toMatch(/^SM/);
  });

  it('retries after a provider 5xx with a growing delay, then succeeds', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const to = '+15551230002';
    await failSms(to, 503, 2);
    const id = await storeMessage(a.accountId, smsMessage('reminder', context(), to, { accountId: a.accountId }));
    expect(await deliverMessage(db, twilioEnv(), id)).toEqual({ status: 'retry', delaySeconds: 30 });
    expect(await deliverMessage(db, twilioEnv(), id)).toEqual({ status: 'retry', delaySeconds: 120 });
    expect(await deliverMessage(db, twilioEnv(), id)).toEqual({ status: 'sent' });
    expect((await getMessage(db, id))!.attempts).toBe(3);
  });

  it('fails for good on a provider 4xx without retrying', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const to = '+15551230003';
    await failSms(to, 400, 1);
    const id = await storeMessage(a.accountId, smsMessage('reminder', context(), to, { accountId: a.accountId }));
    expect(await deliverMessage(db, twilioEnv(), id)).toEqual({ status: 'failed' });
    expect(await getMessage(db, id)).toMatchObject({ status: 'failed', error: 'SMS provider answered 400: Simulated 400' });
  });

  it(`fails a message after ${MAX_ATTEMPTS} attempts`, async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const to = '+15551230004';
    await failSms(to, 500, 99);
    const id = await storeMessage(a.accountId, smsMessage('reminder', context(), to, { accountId: a.accountId }));
    const outcomes = [];
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) outcomes.push((await deliverMessage(db, twilioEnv(), id)).status);
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'retry', 'failed']);
    expect((await getMessage(db, id))!.status).toBe('failed');
  });

  it('fails SMS in production when no provider is configured', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const id = await storeMessage(a.accountId, smsMessage('invitation', context(), '+15551230005', { accountId: a.accountId }));
    expect(await deliverMessage(db, { ...env, ENVIRONMENT: 'production' }, id)).toEqual({ status: 'failed' });
    expect((await getMessage(db, id))!.error).toMatch(/SMS is not configured/);
  });

  it('sends email through the send_email binding when configured', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const id = await storeMessage(a.accountId, emailMessage('invitation', context(), { accountId: a.accountId }));
    const outcome = await deliverMessage(db, { ...env, MAIL_TRANSPORT: 'cloudflare', MAIL_FROM: 'no-reply@sign.test' }, id);
    expect(outcome).toEqual({ status: 'sent' });
    expect((await getMessage(db, id))!.transport).toBe('cloudflare');
  });
});

describe('the messages queue and sweep', () => {
  it('acknowledges delivered messages and retries failed ones with their delay', async () => {
    const a = await createAccount();
    const to = '+15551230006';
    await failSms(to, 502, 1);
    const ok = await storeMessage(a.accountId, emailMessage('invitation', context(), { accountId: a.accountId }));
    const flaky = await storeMessage(a.accountId, smsMessage('invitation', context(), to, { accountId: a.accountId }));
    // Stamped with the account's shard, as the producers stamp them.
    const shard = await shardNumberOf(a.accountId);
    const batch = createMessageBatch<MessageQueueBody & ShardStamp>('signing-service-messages', [
      { id: 'm1', timestamp: new Date(), attempts: 1, body: { type: 'message', id: ok, shard } },
      { id: 'm2', timestamp: new Date(), attempts: 1, body: { type: 'message', id: flaky, shard } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, twilioEnv(), ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['m1']);
    // The retry delay itself is asserted on deliverMessage above; the queue result records only the id.
    expect(result.retryMessages).toEqual([{ msgId: 'm2' }]);
  });

  it('re-enqueues messages stuck mid-send and those whose queue message was lost', async () => {
    const a = await createAccount();
    const db = await dbOf(a.accountId);
    const stuck = await storeMessage(a.accountId, emailMessage('invitation', context(), { accountId: a.accountId }));
    const lost = await storeMessage(a.accountId, emailMessage('reminder', context(), { accountId: a.accountId }));
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    await (await shardOf(a.accountId))
      .prepare("UPDATE messages SET status = 'sending', claimed_at = ?, created_at = ? WHERE id = ?")
      .bind(old, old, stuck)
      .run();
    await (await shardOf(a.accountId)).prepare('UPDATE messages SET created_at = ? WHERE id = ?').bind(old, lost).run();
    const sent: number[] = [];
    const queue = {
      sendBatch: async (items: { body: MessageQueueBody }[]) => void sent.push(...items.map((i) => (i.body as { id: number }).id)),
    } as unknown as Queue<MessageQueueBody>;
    expect(await sweepMessages(db, queue)).toBeGreaterThanOrEqual(2);
    expect(sent).toEqual(expect.arrayContaining([stuck, lost]));
    expect((await getMessage(db, stuck))!.status).toBe('queued');
  });
});

describe('GET /dev/outbox', () => {
  it('lists messages newest first in development', async () => {
    const a = await createAccount();
    await storeMessage(
      a.accountId,
      emailMessage('invitation', context({ submitter: { name: 'Bo', email: 'bo@example.com', link: 'https://x' } }), {
        accountId: a.accountId,
      }),
    );
    const res = await createApp().request(
      '/dev/outbox?to=BO@example.com',
      {},
      { ...env, ENVIRONMENT: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    const body = await res.json<{ data: { to: string; kind: string; subject: string }[] }>();
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ to: 'bo@example.com', kind: 'invitation', subject: 'Acme has sent you NDA to sign' });
  });

  it('is not found outside development', async () => {
    const res = await createApp().request('/dev/outbox', {}, env, createExecutionContext());
    expect(res.status).toBe(404);
  });
});
