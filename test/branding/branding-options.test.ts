// GET /api/branding_options: the account's brands and only its active custom domains (issue 17 › 4).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount, createToken, type TestAccount } from '../helpers';

async function addDomain(a: TestAccount, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/custom_domains', {
    token: a.token,
    body: { hostname: `opt-${crypto.randomUUID().slice(0, 8)}.example.com`, ...body },
  });
  expect(res.status).toBe(201);
  return res.json as { id: number; hostname: string; verification: { name: string; value: string } };
}

async function activeDomain(a: TestAccount, body: Record<string, unknown> = {}) {
  const d = await addDomain(a, body);
  await fetch(new URL(`/_control/${d.verification.name}`, env.DOH_RESOLVER_URL), {
    method: 'PUT',
    body: JSON.stringify({ TXT: [d.verification.value] }),
  });
  expect((await api('POST', `/api/custom_domains/${d.id}/verify`, { token: a.token })).json.status).toBe('active');
  return d;
}

async function brand(a: TestAccount, name: string) {
  const res = await api('POST', '/api/brands', { token: a.token, body: { name } });
  expect(res.status).toBe(201);
  return res.json.brand as { id: number; name: string };
}

describe('GET /api/branding_options', () => {
  it('lists the account’s brands by name and its active custom domains', async () => {
    const a = await createAccount();
    const zeta = await brand(a, 'Zeta');
    const acme = await brand(a, 'Acme');
    const d = await activeDomain(a, { is_default: true });
    const res = await api('GET', '/api/branding_options', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      brands: [
        { id: acme.id, name: 'Acme' },
        { id: zeta.id, name: 'Zeta' },
      ],
      custom_domains: [{ id: d.id, hostname: d.hostname, is_default: true }],
    });
  });

  it('leaves out custom domains that are not active', async () => {
    const a = await createAccount();
    await addDomain(a);
    const res = await api('GET', '/api/branding_options', { token: a.token });
    expect(res.json.custom_domains).toEqual([]);
  });

  it('answers empty lists to an account with neither', async () => {
    const a = await createAccount();
    expect((await api('GET', '/api/branding_options', { token: a.token })).json).toEqual({ brands: [], custom_domains: [] });
  });

  it('never lists another account’s brands or domains', async () => {
    const a = await createAccount();
    const other = await createAccount();
    await brand(other, 'Theirs');
    await activeDomain(other);
    const res = await api('GET', '/api/branding_options', { token: a.token });
    expect(res.json).toEqual({ brands: [], custom_domains: [] });
  });

  it('is open to a viewer', async () => {
    const a = await createAccount();
    const viewer = await addUser(a.accountId, 'viewer');
    expect((await api('GET', '/api/branding_options', { token: viewer.token })).status).toBe(200);
  });

  it('answers 403 to a token without account:read', async () => {
    const a = await createAccount();
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    const res = await api('GET', '/api/branding_options', { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/account:read/);
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/branding_options', { token: null })).status).toBe(401);
  });
});
