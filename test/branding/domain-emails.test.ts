// Emails on a custom signing domain (docs/branding.md › Resolution, docs/custom-domains.md › Links): the
// domain's branding below the brand, and the domain's links in messages built without a request (cron).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { shardScope } from '../../src/db/shards';
import { completeLeftPendingSubmissions } from '../../src/scheduled/completion-sweep';
import { expireDueSubmissions } from '../../src/services/submissions/expire-submissions';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { page, signingFixture } from '../signing/fixtures';
import { createTemplate, messagesTo, shardNumberOf } from '../submission-fixtures';

const domainBranding = { company_name: 'Domain Co', display_title: 'Domain title', primary_button_color: '#7c2d12' };

let counter = 0;
/** A domain taken through the whole flow: TXT record published, verified, activated at Cloudflare. */
async function activeDomain(a: TestAccount, body: Record<string, unknown> = {}) {
  counter += 1;
  const created = await api('POST', '/api/custom_domains', {
    token: a.token,
    body: { hostname: `mail-${counter}-${crypto.randomUUID().slice(0, 8)}.example.com`, ...body },
  });
  expect(created.status).toBe(201);
  const d = created.json as { id: number; hostname: string; verification: { name: string; value: string } };
  const published = await fetch(new URL(`/_control/${d.verification.name}`, env.DOH_RESOLVER_URL), {
    method: 'PUT',
    body: JSON.stringify({ TXT: [d.verification.value] }),
  });
  expect(published.status).toBe(204);
  expect((await api('POST', `/api/custom_domains/${d.id}/verify`, { token: a.token })).json.status).toBe('active');
  return d;
}

async function submissionFor(a: TestAccount, extra: Record<string, unknown> = {}) {
  const email = `signer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const template = await createTemplate(a.token, ['Client']);
  const res = await api('POST', '/api/submissions', {
    token: a.token,
    body: { template_id: template.id, submitters: [{ role: 'Client', email }], ...extra },
  });
  expect(res.status).toBe(201);
  return { submission: res.json as { id: number }, submitter: res.json.submitters[0] as { id: number; slug: string }, email };
}

/** Leaves the submission pending with every submitter completed: the state the cron's completion sweep repairs. */
async function leftPending(a: TestAccount, submissionId: number) {
  await (await shardOf(a.accountId))
    .prepare("UPDATE submitters SET status = 'completed', completed_at = ? WHERE submission_id = ?")
    .bind(new Date().toISOString(), submissionId)
    .run();
}

async function runCompletionSweep(a: TestAccount) {
  return completeLeftPendingSubmissions(shardScope(env, await shardNumberOf(a.accountId)));
}

describe('emails whose links use a custom domain', () => {
  it('carry the domain’s branding in the invitation', async () => {
    const a = await createAccount();
    await activeDomain(a, { is_default: true, branding: domainBranding });
    const { email } = await submissionFor(a);
    const [invitation] = await messagesTo(email);
    expect(invitation.html).toContain('<strong style="font-size:18px">Domain Co</strong>');
    expect(invitation.html).toContain('>Domain title</h1>');
    expect(invitation.html).toContain('background:#7c2d12');
  });

  it('carry the domain’s branding in a reminder sent through the API', async () => {
    const a = await createAccount();
    await activeDomain(a, { is_default: true, branding: domainBranding });
    const { submitter, email } = await submissionFor(a);
    expect((await api('POST', `/api/submitters/${submitter.id}/remind`, { token: a.token })).status).toBe(200);
    const reminder = (await messagesTo(email)).find((m) => m.kind === 'reminder');
    expect(reminder?.html).toContain('<strong style="font-size:18px">Domain Co</strong>');
  });

  it('let the brand override the domain’s branding key by key', async () => {
    const a = await createAccount();
    await activeDomain(a, { is_default: true, branding: domainBranding });
    const brand = await api('POST', '/api/brands', { token: a.token, body: { name: 'Brand', branding: { company_name: 'Brand Co' } } });
    const { email } = await submissionFor(a, { preferences: { brand_id: brand.json.brand.id } });
    const [invitation] = await messagesTo(email);
    expect(invitation.html).toContain('<strong style="font-size:18px">Brand Co</strong>');
    expect(invitation.html).toContain('>Domain title</h1>');
  });

  it('carry the domain’s branding in the email code the signing page sends', async () => {
    const f = await signingFixture({ preferences: { require_email_2fa: true }, fields: [{ name: 'Name', type: 'text' }] });
    await activeDomain(f.account, { is_default: true, branding: domainBranding });
    const { slug, email } = f.submitters[0];
    expect((await page('POST', `/s/${slug}/verification`, { body: {} })).status).toBe(200);
    const code = (await messagesTo(email!)).find((m) => m.kind === 'verification_code');
    expect(code?.html).toContain('<strong style="font-size:18px">Domain Co</strong>');
  });

  it('do not carry the branding of a domain the links do not use', async () => {
    const a = await createAccount();
    await activeDomain(a, { branding: domainBranding });
    const { email } = await submissionFor(a);
    const [invitation] = await messagesTo(email);
    expect(invitation.html).not.toContain('Domain Co');
  });
});

describe('emails the cron builds', () => {
  it('link the completion copy to the custom domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true, branding: domainBranding });
    const { submission, submitter, email } = await submissionFor(a);
    await leftPending(a, submission.id);
    expect(await runCompletionSweep(a)).toContain(submission.id);
    const copy = (await messagesTo(email)).find((m) => m.kind === 'completion');
    expect(copy?.html).toContain(`https://${d.hostname}/s/${submitter.slug}`);
    expect(copy?.html).toContain('<strong style="font-size:18px">Domain Co</strong>');
  });

  it('link the completion copy to the service’s base URL once the domain is deleted', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true, branding: domainBranding });
    const { submission, submitter, email } = await submissionFor(a);
    expect((await api('DELETE', `/api/custom_domains/${d.id}`, { token: a.token })).status).toBe(204);
    await leftPending(a, submission.id);
    expect(await runCompletionSweep(a)).toContain(submission.id);
    const copy = (await messagesTo(email)).find((m) => m.kind === 'completion');
    expect(copy?.html).toContain(`https://api.test/s/${submitter.slug}`);
    expect(copy?.html).not.toContain(d.hostname);
    expect(copy?.html).not.toContain('Domain Co');
  });

  it('brand the expiry notice with the custom domain’s branding', async () => {
    const a = await createAccount();
    await activeDomain(a, { is_default: true, branding: domainBranding });
    const { submission, email } = await submissionFor(a, { expire_at: new Date(Date.now() + 60_000).toISOString() });
    await (await shardOf(a.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), submission.id)
      .run();
    await expireDueSubmissions(shardScope(env, await shardNumberOf(a.accountId)), new Date());
    const notice = (await messagesTo(email)).find((m) => m.kind === 'expiry');
    expect(notice?.html).toContain('<strong style="font-size:18px">Domain Co</strong>');
  });
});
