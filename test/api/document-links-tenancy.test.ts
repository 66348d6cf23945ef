// Public document links belong to one account: they are not served on another account's custom domain,
// nor while the account is suspended (docs/document-links.md; docs/security.md › Custom domains).
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, partnerApi, type TestAccount } from '../helpers';
import { mint, open, seal, submissionOf, type LinkedSubmission } from '../document-link-fixtures';

/** A custom domain taken through the whole flow: TXT record on the local resolver, verified, active. */
async function activeDomain(a: TestAccount): Promise<string> {
  const host = `links-${crypto.randomUUID().slice(0, 8)}.example.com`;
  const added = await api('POST', '/api/custom_domains', { token: a.token, body: { hostname: host } });
  expect(added.status).toBe(201);
  const { name, value } = added.json.verification as { name: string; value: string };
  const published = await fetch(new URL(`/_control/${name}`, env.DOH_RESOLVER_URL), {
    method: 'PUT',
    body: JSON.stringify({ TXT: [value] }),
  });
  expect(published.status).toBe(204);
  expect((await api('POST', `/api/custom_domains/${added.json.id}/verify`, { token: a.token })).json.status).toBe('active');
  return host;
}

async function linkOf(owner: TestAccount, s: LinkedSubmission): Promise<URL> {
  const res = await mint(owner, s);
  expect(res.status).toBe(201);
  return new URL(res.json.url);
}

function onHost(url: URL, host: string): string {
  const moved = new URL(url);
  moved.host = host;
  return moved.toString();
}

let owner: TestAccount;
let sealed: LinkedSubmission;

beforeAll(async () => {
  owner = await createAccount({ name: 'Links Owner Co' });
  sealed = await submissionOf(owner);
  await seal(owner, sealed.id);
});

describe('a public document link', { timeout: 60_000 }, () => {
  it("is not found on another account's custom domain", async () => {
    const link = await linkOf(owner, sealed);
    const otherHost = await activeDomain(await createAccount());
    const res = await open(onHost(link, otherHost));
    expect(res.status).toBe(404);
    expect(res.text).toContain('This link does not exist');
  });

  it("opens on its own account's custom domain", async () => {
    const link = await linkOf(owner, sealed);
    const res = await open(onHost(link, await activeDomain(owner)));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
  });

  it('is not found while its account is suspended, and opens again once the suspension is lifted', async () => {
    const account = await createAccount({ name: 'Suspended Links Co' });
    const s = await submissionOf(account);
    await seal(account, s.id);
    const link = (await linkOf(account, s)).toString();
    expect((await open(link)).status).toBe(200);
    expect((await partnerApi('PATCH', `/accounts/${account.accountId}`, { body: { suspended: true } })).status).toBe(200);
    const refused = await open(link);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain('This link does not exist');
    await partnerApi('PATCH', `/accounts/${account.accountId}`, { body: { suspended: false } });
    expect((await open(link)).status).toBe(200);
  });
});
