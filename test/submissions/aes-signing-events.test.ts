// signing.complete at signature level aes (issue 18 › 6): fired after form.completed for every aes signer,
// with the identity block, and delivered through the real webhook path to a local receiver.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount } from '../helpers';
import { acceptDisclosure, messagesTo, page } from '../signing/fixtures';
import { receivedBy } from '../webhook-receiver';
import { seal } from '../document-link-fixtures';
import { deliverPending, receiverHook, runQueue } from '../webhook-fixtures';
import { createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let hookId: number;
let receiver: string;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
  const hook = await receiverHook(owner.token, { events: ['form.completed', 'signing.complete'] });
  hookId = hook.hook.id;
  receiver = hook.receiver;
});

const cookieOf = (res: { headers: Headers }) => res.headers.get('Set-Cookie')!.split(';')[0];

/** The signer fills and submits their form on the signing page; with `code`, after an email code. */
async function signOnPage(template: TemplateFixture, level: 'aes' | 'ses', email: string, code: boolean): Promise<number> {
  const s = (
    await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, preferences: { signature_level: level }, submitters: [{ email, name: 'Ida Signer' }] },
    })
  ).json;
  const slug = s.submitters[0].slug;
  let headers: Record<string, string> = {};
  if (code) {
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const sent = /\b(\d{6})\b/.exec((await messagesTo(email, 'verification_code')).at(-1)!.text)![1];
    headers = { Cookie: cookieOf(await page('POST', `/s/${slug}/verification/check`, { body: { code: sent } })) };
  }
  expect((await page('POST', `/s/${slug}/open`, { body: {}, headers })).status).toBe(200);
  await acceptDisclosure(slug, headers);
  const uuid = (name: string) => template.fields.find((f) => f.name === name)!.uuid;
  const values = {
    [uuid('First Party Name')]: 'Ida Signer',
    [uuid('First Party Signature')]: 'Ida Signer',
    [uuid('First Party Date')]: '2026-11-23',
  };
  expect((await page('POST', `/s/${slug}/submit`, { body: { values }, headers })).status).toBe(200);
  return s.id;
}

type Body = { event: string; timestamp: string; data: Record<string, any> };

/** Sealed first: events that link to the signed documents wait for them (docs/webhooks.md › Events and documents). */
async function deliveredFor(submissionId: number): Promise<Body[]> {
  await seal(owner, submissionId);
  await runQueue([{ kind: 'drain', shard: await shardNumberOf(owner.accountId) }]);
  await deliverPending(hookId);
  const delivered = await receivedBy(receiver);
  expect(delivered.every((d) => d.signatureValid)).toBe(true);
  return delivered.map((d) => JSON.parse(d.body) as Body).filter((b) => b.data.submission?.id === submissionId);
}

describe('signing.complete for aes signers', { timeout: 30_000 }, () => {
  it('fires after form.completed with method email_code and the code check time when the template asks for an email code', async () => {
    const template = await createTemplate(owner.token);
    await api('PUT', `/api/templates/${template.id}`, { token: owner.token, body: { preferences: { require_email_2fa: true } } });
    const id = await signOnPage(template, 'aes', `code-${crypto.randomUUID().slice(0, 6)}@example.com`, true);
    const bodies = await deliveredFor(id);
    expect(bodies.map((b) => b.event)).toEqual(['form.completed', 'signing.complete']);
    const { identity, submitter } = bodies[1].data;
    expect(identity).toMatchObject({ level: 'aes', provider: 'platform', method: 'email_code' });
    expect(Date.parse(identity.verified_at)).toBeLessThanOrEqual(Date.parse(submitter.completed_at));
  });

  it('fires with method email_link, verified at completion, for a signer who signed from their link alone', async () => {
    const template = await createTemplate(owner.token);
    const id = await signOnPage(template, 'aes', `link-${crypto.randomUUID().slice(0, 6)}@example.com`, false);
    const bodies = await deliveredFor(id);
    expect(bodies.map((b) => b.event)).toEqual(['form.completed', 'signing.complete']);
    expect(bodies[1].data.identity).toEqual({
      level: 'aes',
      provider: 'platform',
      method: 'email_link',
      verified_at: bodies[1].data.submitter.completed_at,
    });
  });

  it('does not fire for an ses signer who signed from their link alone', async () => {
    const template = await createTemplate(owner.token);
    const id = await signOnPage(template, 'ses', `ses-${crypto.randomUUID().slice(0, 6)}@example.com`, false);
    expect((await deliveredFor(id)).map((b) => b.event)).toEqual(['form.completed']);
  });
});
