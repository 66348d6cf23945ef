// Requests on a custom signing domain (Host routing) and the signing links that use one
// (docs/custom-domains.md). Domains are activated for real: TXT record on the local DoH resolver,
// verify through the Cloudflare imitation.
import { englishDisclosure } from '../../src/services/signing/consent-disclosure';
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount, clientAddress } from '../helpers';
import { completeValues, createTemplate, messagesTo } from '../submission-fixtures';

let counter = 0;
function hostname(): string {
  counter += 1;
  return `sign-${counter}-${crypto.randomUUID().slice(0, 8)}.example.com`;
}

async function addDomain(a: TestAccount, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/custom_domains', { token: a.token, body: { hostname: hostname(), ...body } });
  expect(res.status).toBe(201);
  return res.json as { id: number; hostname: string; verification: { name: string; value: string } };
}

/** A domain taken through the whole flow: TXT record published, verified, activated at Cloudflare. */
async function activeDomain(a: TestAccount, body: Record<string, unknown> = {}) {
  const d = await addDomain(a, body);
  const published = await fetch(new URL(`/_control/${d.verification.name}`, env.DOH_RESOLVER_URL), {
    method: 'PUT',
    body: JSON.stringify({ TXT: [d.verification.value] }),
  });
  expect(published.status).toBe(204);
  const res = await api('POST', `/api/custom_domains/${d.id}/verify`, { token: a.token });
  expect(res.json.status).toBe('active');
  return d;
}

async function submissionFor(a: TestAccount, email = `signer-${crypto.randomUUID().slice(0, 8)}@example.com`) {
  const template = await createTemplate(a.token, ['Client']);
  const res = await api('POST', '/api/submissions', {
    token: a.token,
    body: { template_id: template.id, submitters: [{ role: 'Client', email }] },
  });
  expect(res.status).toBe(201);
  return { template, submission: res.json, submitter: res.json.submitters[0] as { id: number; slug: string; signing_url: string }, email };
}

function onHost(host: string, path: string, init: RequestInit = {}) {
  return SELF.fetch(`https://${host}${path}`, {
    ...init,
    headers: { 'CF-Connecting-IP': clientAddress(), ...(init.headers as Record<string, string>) },
  });
}

describe('requests whose Host is a custom domain', () => {
  it('serve the signing page on an active domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    const { submitter } = await submissionFor(a);
    const res = await onHost(d.hostname, `/s/${submitter.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
  });

  it('serve the signing page’s assets on an active domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    const res = await onHost(d.hostname, '/vendor/signing/signing-page.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('javascript');
  });

  it('serve the signing page framed by the account’s embed_origins, and the embed script, on an active domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: ['https://app.example.com'] } });
    const { submitter } = await submissionFor(a);
    const res = await onHost(d.hostname, `/s/${submitter.slug}`);
    expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://app.example.com');
    expect(res.headers.get('X-Frame-Options')).toBeNull();
    const script = await onHost(d.hostname, '/embed/v1/form.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toContain('javascript');
  });

  it('answer 404 on /api/user of an active domain, even with a valid token', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    const res = await onHost(d.hostname, '/api/user', { headers: { 'X-Auth-Token': a.token } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('No route for GET /api/user.');
  });

  it('answer 404 on the API reference of an active domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    expect((await onHost(d.hostname, '/api/docs')).status).toBe(404);
  });

  it('refuse a domain that is not verified yet with 421 and a sentence', async () => {
    const a = await createAccount();
    const d = await addDomain(a);
    const { submitter } = await submissionFor(a);
    const res = await onHost(d.hostname, `/s/${submitter.slug}`);
    expect(res.status).toBe(421);
    expect(((await res.json()) as { error: string }).error).toBe(
      `${d.hostname} is not an active signing domain; its owner has not finished verifying it.`,
    );
  });

  it('do not open another account’s signing link', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    const { submitter } = await submissionFor(await createAccount());
    expect((await onHost(d.hostname, `/s/${submitter.slug}`)).status).toBe(404);
  });

  it('show the domain’s branding on the signing page when the template sets none', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { branding: { company_name: 'Domain Co', header_color: '#102030' } });
    const { submitter } = await submissionFor(a);
    const page = await (await onHost(d.hostname, `/s/${submitter.slug}`)).text();
    expect(page).toContain('<title>Agreement - Domain Co</title>');
    expect(page).toContain('#102030');
  });

  it('let the template’s own branding override the domain’s', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { branding: { company_name: 'Domain Co' } });
    const template = await createTemplate(a.token, ['Client']);
    await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { company_name: 'Template Co' } } });
    const created = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    const submitter = created.json.submitters[0];
    const page = await (await onHost(d.hostname, `/s/${submitter.slug}`)).text();
    expect(page).toContain('<title>Agreement - Template Co</title>');
  });

  it('stop being served once the domain is deleted', async () => {
    const a = await createAccount();
    const d = await activeDomain(a);
    await api('DELETE', `/api/custom_domains/${d.id}`, { token: a.token });
    // No longer a custom domain: the host is treated as the service's own, so the API answers there again.
    const res = await onHost(d.hostname, '/api/user', { headers: { 'X-Auth-Token': a.token } });
    expect(res.status).toBe(200);
  });
});

describe('signing links', () => {
  it('use the account’s default active domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true });
    const { submitter } = await submissionFor(a);
    expect(submitter.signing_url).toBe(`https://${d.hostname}/s/${submitter.slug}`);
  });

  it('use the template’s custom_domain when it is an active domain of the account', async () => {
    const a = await createAccount();
    await activeDomain(a, { is_default: true });
    const chosen = await activeDomain(a);
    const template = await createTemplate(a.token, ['Client']);
    await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { custom_domain: chosen.hostname } } });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.json.submitters[0].signing_url).toBe(`https://${chosen.hostname}/s/${res.json.submitters[0].slug}`);
  });

  it('ignore a template’s custom_domain that is not active', async () => {
    const a = await createAccount();
    const pending = await addDomain(a);
    const template = await createTemplate(a.token, ['Client']);
    await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { custom_domain: pending.hostname } } });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.json.submitters[0].signing_url).toBe(`https://api.test/s/${res.json.submitters[0].slug}`);
  });

  it('ignore another account’s domain named by a template', async () => {
    const other = await createAccount();
    const theirs = await activeDomain(other);
    const a = await createAccount();
    const template = await createTemplate(a.token, ['Client']);
    await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { custom_domain: theirs.hostname } } });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.json.submitters[0].signing_url).toBe(`https://api.test/s/${res.json.submitters[0].slug}`);
  });

  it('put the custom domain in the invitation email', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true });
    const { submitter, email } = await submissionFor(a);
    const [invitation] = await messagesTo(email);
    expect(invitation.text).toContain(`https://${d.hostname}/s/${submitter.slug}`);
  });

  it('put the custom domain in a reminder sent through the API', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true });
    const { submitter, email } = await submissionFor(a);
    expect((await api('POST', `/api/submitters/${submitter.id}/remind`, { token: a.token })).status).toBe(200);
    const reminder = (await messagesTo(email)).find((m) => m.kind === 'reminder');
    expect(reminder?.text).toContain(`https://${d.hostname}/s/${submitter.slug}`);
  });

  it('put the custom domain in the next signer’s invitation once the first signs on the domain', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true });
    const template = await createTemplate(a.token, ['Client', 'Manager']);
    const next = `next-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const created = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.id,
        submitters: [
          { role: 'Client', email: 'first@example.com' },
          { role: 'Manager', email: next },
        ],
      },
    });
    const [first, second] = created.json.submitters;
    const values = Object.fromEntries(
      Object.entries(completeValues('Client')).map(([name, value]) => [template.fields.find((f) => f.name === name)!.uuid, value]),
    );
    await onHost(d.hostname, `/s/${first.slug}/consent`, {
      method: 'POST',
      headers: { Origin: `https://${d.hostname}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: englishDisclosure().version }),
    });
    const res = await onHost(d.hostname, `/s/${first.slug}/submit`, {
      method: 'POST',
      headers: { Origin: `https://${d.hostname}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ values }),
    });
    expect(res.status).toBe(200);
    const [invitation] = await messagesTo(next);
    expect(invitation.text).toContain(`https://${d.hostname}/s/${second.slug}`);
  });

  it('fall back to the service’s base URL once the domain is deleted', async () => {
    const a = await createAccount();
    const d = await activeDomain(a, { is_default: true });
    const { submission, submitter } = await submissionFor(a);
    expect(submitter.signing_url).toContain(d.hostname);
    await api('DELETE', `/api/custom_domains/${d.id}`, { token: a.token });
    const res = await api('GET', `/api/submissions/${submission.id}`, { token: a.token });
    expect(res.json.submitters[0].signing_url).toBe(`https://api.test/s/${submitter.slug}`);
    expect((await api('GET', `/api/submitters/${submitter.id}`, { token: a.token })).json.signing_url).toBe(
      `https://api.test/s/${submitter.slug}`,
    );
  });
});
