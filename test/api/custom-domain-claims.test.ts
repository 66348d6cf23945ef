// Custom domain claims cannot be squatted (docs/custom-domains.md › Claims): an unproven claim lapses
// after 7 days, and an account that proves ownership over DNS (the local DoH resolver of
// test/global/doh-resolver-server.ts) takes the name from other accounts' unproven claims.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CLAIM_LAPSE_MS } from '../../src/services/custom-domains/claims';
import { deleteLapsedClaims } from '../../src/services/custom-domains/custom-domains';
import { controlDb } from '../../src/db/shards';
import { api, createAccount, type TestAccount, clientAddress } from '../helpers';

let counter = 0;
function hostname(): string {
  counter += 1;
  return `claim-${counter}-${crypto.randomUUID().slice(0, 8)}.example.com`;
}

type Domain = { id: number; hostname: string; status: string; verification: { name: string; value: string } };

const add = (a: TestAccount, host: string) => api('POST', '/api/custom_domains', { token: a.token, body: { hostname: host } });

async function claim(a: TestAccount, host = hostname()): Promise<Domain> {
  const res = await add(a, host);
  expect(res.status).toBe(201);
  return res.json as Domain;
}

async function publish(d: Domain) {
  const res = await fetch(new URL(`/_control/${d.verification.name}`, env.DOH_RESOLVER_URL), {
    method: 'PUT',
    body: JSON.stringify({ TXT: [d.verification.value] }),
  });
  expect(res.status).toBe(204);
}

const verify = (a: TestAccount, d: Domain) => api('POST', `/api/custom_domains/${d.id}/verify`, { token: a.token });

/** Moves a claim's creation back by `ms`, as if it had been added that long ago. */
async function age(d: Domain, ms: number) {
  await env.CONTROL_DB.prepare('UPDATE custom_domains SET created_at = ? WHERE id = ?')
    .bind(new Date(Date.now() - ms).toISOString(), d.id)
    .run();
}

const rowsFor = async (host: string) =>
  (
    await env.CONTROL_DB.prepare('SELECT account_id, status FROM custom_domains WHERE hostname = ? ORDER BY id')
      .bind(host)
      .all<{ account_id: number; status: string }>()
  ).results;

describe('an unproven claim', () => {
  it('does not stop another account from adding the same host name', async () => {
    const squatter = await createAccount();
    const owner = await createAccount();
    const host = hostname();
    await claim(squatter, host);
    const res = await add(owner, host);
    expect(res.status).toBe(201);
    expect(res.json.status).toBe('pending');
    expect((await rowsFor(host)).map((row) => row.account_id)).toEqual([squatter.accountId, owner.accountId]);
  });

  it('older than 7 days no longer blocks: adding the name replaces it', async () => {
    const squatter = await createAccount();
    const owner = await createAccount();
    const host = hostname();
    const old = await claim(squatter, host);
    await age(old, CLAIM_LAPSE_MS + 60_000);
    const res = await add(owner, host);
    expect(res.status).toBe(201);
    expect(await rowsFor(host)).toEqual([{ account_id: owner.accountId, status: 'pending' }]);
    expect((await api('GET', `/api/custom_domains/${old.id}`, { token: squatter.token })).status).toBe(404);
  });

  it('older than 7 days no longer has its host refused with 421', async () => {
    const squatter = await createAccount();
    const old = await claim(squatter);
    await age(old, CLAIM_LAPSE_MS + 60_000);
    const res = await SELF.fetch(`https://${old.hostname}/s/unknownslug00`, { headers: { 'CF-Connecting-IP': clientAddress() } });
    expect(res.status).not.toBe(421);
  });

  it('younger than 7 days still has its host refused with 421', async () => {
    const squatter = await createAccount();
    const fresh = await claim(squatter);
    await age(fresh, CLAIM_LAPSE_MS - 60 * 60_000);
    const res = await SELF.fetch(`https://${fresh.hostname}/s/unknownslug00`, { headers: { 'CF-Connecting-IP': clientAddress() } });
    expect(res.status).toBe(421);
  });

  it('is deleted by the cron once lapsed, and a younger one is kept', async () => {
    const a = await createAccount();
    const old = await claim(a);
    const fresh = await claim(a);
    await age(old, CLAIM_LAPSE_MS + 60_000);
    expect(await deleteLapsedClaims(controlDb(env))).toBeGreaterThanOrEqual(1);
    expect(await rowsFor(old.hostname)).toEqual([]);
    expect(await rowsFor(fresh.hostname)).toEqual([{ account_id: a.accountId, status: 'pending' }]);
  });

  it('of the same account twice is a 409 with a sentence', async () => {
    const a = await createAccount();
    const d = await claim(a);
    const res = await add(a, d.hostname);
    expect(res.status).toBe(409);
    expect(res.json.error).toBe(`hostname ${d.hostname} is already one of this account's custom domains.`);
  });
});

describe('proving ownership over DNS', { timeout: 60_000 }, () => {
  it("takes the host name from another account's unproven claim, which is gone", async () => {
    const squatter = await createAccount();
    const owner = await createAccount();
    const host = hostname();
    const squat = await claim(squatter, host);
    const mine = await claim(owner, host);
    expect(mine.verification.value).not.toBe(squat.verification.value);
    await publish(mine);
    const res = await verify(owner, mine);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('active');
    expect(await rowsFor(host)).toEqual([{ account_id: owner.accountId, status: 'active' }]);
    expect((await api('GET', `/api/custom_domains/${squat.id}`, { token: squatter.token })).status).toBe(404);
  });

  it('lets nobody else add the name once proven (409)', async () => {
    const owner = await createAccount();
    const d = await claim(owner);
    await publish(d);
    expect((await verify(owner, d)).status).toBe(200);
    const res = await add(await createAccount(), d.hostname.toUpperCase());
    expect(res.status).toBe(409);
    expect(res.json.error).toBe(`hostname ${d.hostname} is already registered as a custom domain.`);
  });

  it('does not let a squatter verify without the TXT record holding its own token', async () => {
    const squatter = await createAccount();
    const owner = await createAccount();
    const host = hostname();
    const squat = await claim(squatter, host);
    const mine = await claim(owner, host);
    await publish(mine);
    const res = await verify(squatter, squat);
    expect(res.status).toBe(422);
    expect(await rowsFor(host)).toEqual([
      { account_id: squatter.accountId, status: 'pending' },
      { account_id: owner.accountId, status: 'pending' },
    ]);
  });

  it('serves the owner’s domain on the host once proven, not the squatter’s claim', async () => {
    const squatter = await createAccount();
    const owner = await createAccount();
    const host = hostname();
    await claim(squatter, host);
    const mine = await claim(owner, host);
    await publish(mine);
    await verify(owner, mine);
    // Another isolate's cache aside, the host now resolves to the active domain: no 421.
    const res = await SELF.fetch(`https://${host}/s/unknownslug00`, { headers: { 'CF-Connecting-IP': clientAddress() } });
    expect(res.status).toBe(404);
  });
});
