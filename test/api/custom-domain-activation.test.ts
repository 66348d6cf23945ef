// Custom domain ownership (TXT record over DNS-over-HTTPS, the local resolver of
// test/global/doh-resolver-server.ts) and activation through the Cloudflare for SaaS imitation
// (test/global-setup/cloudflare-imitation.mjs).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { handleScheduled } from '../../src/scheduled';
import { api, createAccount } from '../helpers';
import type { DohRecord } from '../global/doh-resolver-server';

let counter = 0;
function hostname(suffix = 'example.com'): string {
  counter += 1;
  return `sign-${counter}-${crypto.randomUUID().slice(0, 8)}.${suffix}`;
}

async function answerFor(name: string, record: DohRecord) {
  const res = await fetch(new URL(`/_control/${name}`, env.DOH_RESOLVER_URL), { method: 'PUT', body: JSON.stringify(record) });
  if (res.status !== 204) throw new Error(`the DoH resolver answered ${res.status}`);
}

async function cloudflareHostnames(): Promise<{ id: string; hostname: string }[]> {
  const res = await fetch(new URL('/__hostnames', env.CF_API_BASE));
  return (await res.json()) as { id: string; hostname: string }[];
}

async function pendingDomain(token: string, host = hostname()) {
  const res = await api('POST', '/api/custom_domains', { token, body: { hostname: host } });
  expect(res.status).toBe(201);
  return res.json as { id: number; hostname: string; verification: { value: string; name: string; legacy_name: string } };
}

const verify = (token: string | null, id: number) => api('POST', `/api/custom_domains/${id}/verify`, { token });

describe('POST /api/custom_domains/{id}/verify', () => {
  it('activates a domain whose TXT record holds its token, showing the pending certificate', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: ['v=unrelated', d.verification.value] });
    const res = await verify(a.token, d.id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'active', certificate_status: 'pending_validation' });
    expect(res.json.verified_at).toEqual(expect.any(String));
    expect((await cloudflareHostnames()).map((h) => h.hostname)).toContain(d.hostname);
  });

  it('accepts the legacy record name _sign-verify', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.legacy_name, { TXT: [d.verification.value] });
    const res = await verify(a.token, d.id);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('active');
  });

  it('refuses a TXT record with the wrong token and leaves the domain pending', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: ['someone-elses-token'] });
    const res = await verify(a.token, d.id);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `No TXT record _signing-service-verify.${d.hostname} with the value ${d.verification.value} was found; add it at your DNS provider and verify again (DNS changes can take a few minutes).`,
    );
    expect((await api('GET', `/api/custom_domains/${d.id}`, { token: a.token })).json.status).toBe('pending');
    expect((await cloudflareHostnames()).map((h) => h.hostname)).not.toContain(d.hostname);
  });

  it('refuses a domain without any TXT record', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    expect((await verify(a.token, d.id)).status).toBe(422);
  });

  it('answers 502 when the DNS resolver fails', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { rcode: 2 });
    await answerFor(d.verification.legacy_name, { rcode: 2 });
    const res = await verify(a.token, d.id);
    expect(res.status).toBe(502);
    expect(res.json.error).toContain('could not be checked');
  });

  it('marks the domain failed when Cloudflare refuses the host name', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token, hostname('refused.example'));
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    const res = await verify(a.token, d.id);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`Cloudflare refused to activate ${d.hostname}: This hostname is not allowed.`);
    expect((await api('GET', `/api/custom_domains/${d.id}`, { token: a.token })).json.status).toBe('failed');
  });

  it('refreshes the certificate status when an active domain is verified again', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    await verify(a.token, d.id);
    const again = await verify(a.token, d.id);
    expect(again.status).toBe(200);
    expect(again.json.certificate_status).toBe('active');
  });

  it('lets the cron refresh pending certificate statuses', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    await verify(a.token, d.id);
    await handleScheduled(
      env,
      Date.now(),
      (await import('../../src/scheduled')).CRON_STEPS.filter((s) => s.name === 'custom domain certificates'),
    );
    expect((await api('GET', `/api/custom_domains/${d.id}`, { token: a.token })).json.certificate_status).toBe('active');
  });

  it('removes the Cloudflare custom hostname when the domain is deleted', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    await verify(a.token, d.id);
    expect((await api('DELETE', `/api/custom_domains/${d.id}`, { token: a.token })).status).toBe(204);
    expect((await cloudflareHostnames()).map((h) => h.hostname)).not.toContain(d.hostname);
  });

  it('creates one Cloudflare hostname when two verifies race', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    const results = await Promise.all([verify(a.token, d.id), verify(a.token, d.id)]);
    // The loser either sees the winner's result or is told to try again; never a failed domain.
    expect(results.map((r) => r.status)).toContain(200);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect((await cloudflareHostnames()).filter((h) => h.hostname === d.hostname)).toHaveLength(1);
    const row = await createDb(env.CONTROL_DB).query.customDomains.findFirst({ where: (t, { eq }) => eq(t.id, d.id) });
    expect(row?.status).toBe('active');
  });

  it('answers 401 without a token', async () => {
    expect((await verify(null, 1)).status).toBe(401);
  });

  it('answers 403 to a token with only account:read', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    const reader = await createAccount({ scopes: ['account:read'] });
    // The reader's own account: scope is checked before the id is looked up.
    const res = await verify(reader.token, d.id);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 404 for another account’s domain', async () => {
    const a = await createAccount();
    const d = await pendingDomain(a.token);
    await answerFor(d.verification.name, { TXT: [d.verification.value] });
    const res = await verify((await createAccount()).token, d.id);
    expect(res.status).toBe(404);
    expect((await api('GET', `/api/custom_domains/${d.id}`, { token: a.token })).json.status).toBe('pending');
  });
});
