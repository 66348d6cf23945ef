// Opening public document links: the PDF, ranges, HEAD, expiry, revoke-all, forged tokens, the audit
// trail (issue 20 › 1; decisions.md › Public links and payments).
import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signDocumentLink, verifyDocumentLink } from '../../src/services/document-links/tokens';
import { api, createAccount, partnerApi, shardOf, type TestAccount } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { mint, open, seal, storedPdf, submissionOf, type LinkedSubmission } from '../document-link-fixtures';

let owner: TestAccount;
let sealed: LinkedSubmission;
let pdf: Uint8Array;

beforeAll(async () => {
  owner = await createAccount({ name: 'Downloads Co' });
  sealed = await submissionOf(owner);
  await seal(owner, sealed.id);
  pdf = await storedPdf(owner, sealed.id, sealed.documentId);
});

afterEach(() => {
  vi.useRealTimers();
});

async function linkUrl(account = owner, s = sealed, body?: unknown): Promise<string> {
  const res = await mint(account, s, body);
  expect(res.status).toBe(201);
  return res.json.url;
}

async function downloadEvents(account: TestAccount, submissionId: number) {
  const { results } = await (await shardOf(account.accountId))
    .prepare(
      "SELECT actor, ip, user_agent, status, path FROM audit_events WHERE account_id = ? AND action = 'document_link.download' AND resource_id = ? ORDER BY id",
    )
    .bind(account.accountId, String(submissionId))
    .all<{ actor: string; ip: string; user_agent: string; status: number; path: string }>();
  return results;
}

describe('GET /l/<token>', () => {
  it('sends the stored PDF as an attachment with an ETag and Accept-Ranges, without credentials', async () => {
    const res = await open(await linkUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="[^"]+\.pdf"; filename\*=UTF-8''/);
    expect(res.headers.get('ETag')).toMatch(/^"/);
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Length')).toBe(String(pdf.length));
    expect(res.bytes).toEqual(pdf);
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const res = await open(await linkUrl(), { headers: { Range: 'bytes=10-109' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe(`bytes 10-109/${pdf.length}`);
    expect(res.bytes).toEqual(pdf.slice(10, 110));
  });

  it('answers a suffix range with the last bytes', async () => {
    const res = await open(await linkUrl(), { headers: { Range: 'bytes=-50' } });
    expect(res.status).toBe(206);
    expect(res.bytes).toEqual(pdf.slice(pdf.length - 50));
  });

  it('answers 416 with Content-Range */size for a range past the end', async () => {
    const res = await open(await linkUrl(), { headers: { Range: `bytes=${pdf.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('Content-Range')).toBe(`bytes */${pdf.length}`);
  });

  it('answers several ranges at once with the whole file', async () => {
    const res = await open(await linkUrl(), { headers: { Range: 'bytes=0-9,20-29' } });
    expect(res.status).toBe(200);
    expect(res.bytes).toEqual(pdf);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await open(await linkUrl(), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Length')).toBe(String(pdf.length));
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.bytes.length).toBe(0);
  });

  it('answers 404 for a token whose signature was altered', async () => {
    const url = await linkUrl();
    const at = url.lastIndexOf('.') + 1;
    const altered = url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1);
    const res = await open(altered);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error).toMatch(/does not exist/);
  });

  it('answers 404 for another spelling of the same signature (spare bits of its last character set)', async () => {
    const url = await linkUrl();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last of 22 characters carries 2 bits of the MAC and 4 spare bits.
    const last = alphabet.indexOf(url.at(-1)!);
    const respelled = url.slice(0, -1) + alphabet[last | 1];
    expect(respelled).not.toBe(url);
    expect((await open(respelled)).status).toBe(404);
  });

  it('answers 404 for a token pointing elsewhere than it was signed for', async () => {
    const url = await linkUrl();
    const [claims, mac] = [url.slice(url.indexOf('/l/') + 3, url.lastIndexOf('.')), url.slice(url.lastIndexOf('.') + 1)];
    const parts = claims.split('.');
    parts[1] = parts[1] + '0';
    expect((await open(`https://api.test/l/${parts.join('.')}.${mac}`)).status).toBe(404);
  });

  it('shows a browser the signing pages’ message page in the service’s branding, framed by nobody', async () => {
    const page = await open('https://api.test/l/not-a-token', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.text).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    expect(page.text).toContain('<header class="brand">');
    expect(page.text).toContain('<div class="card" id="document-link"><h1>Link not found</h1>');
    expect(page.text).toContain('Ask the sender for a new link.');
    expect(page.text).not.toContain('<script');
    expect(page.headers.get('Content-Security-Policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    expect(page.headers.get('Cache-Control')).toBe('no-store');
  });

  it('answers 404 for a malformed token, however long', async () => {
    expect((await open('https://api.test/l/not-a-token')).status).toBe(404);
    expect((await open(`https://api.test/l/${'a'.repeat(5000)}`)).status).toBe(404);
  });

  it('answers 410 once the link has expired (clock moved past its expiry)', async () => {
    const url = await linkUrl(owner, sealed, { expires_in_days: 1 });
    expect((await open(url, { method: 'HEAD' })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    const res = await open(url);
    expect(res.status).toBe(410);
    expect(JSON.parse(res.text).error).toMatch(/expired/);
  });

  it('answers 410 for a link minted with an expiry already past', async () => {
    const url = await linkUrl();
    const claims = (await verifyDocumentLink(env.ENCRYPTION_KEY, url.split('/l/')[1]))!;
    const past = await signDocumentLink(env.ENCRYPTION_KEY, { ...claims, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await open(`https://api.test/l/${past}`)).status).toBe(410);
  });

  it('counts a download from byte 0 as one audit event with the address and user agent, not HEAD or later chunks', async () => {
    const s = await submissionOf(owner);
    await seal(owner, s.id);
    const url = await linkUrl(owner, s);
    await open(url, { headers: { 'User-Agent': 'LinkTest/1.0' } });
    await open(url, { method: 'HEAD' });
    await open(url, { headers: { Range: 'bytes=100-199' } });
    await open(url, { headers: { Range: 'bytes=0-99' } });
    const events = await downloadEvents(owner, s.id);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ actor: 'public_link', ip: '203.0.113.9', user_agent: 'LinkTest/1.0', status: 200 });
    expect(events[1].status).toBe(206);
    // The trail never holds a working link.
    expect(events[0].path).not.toContain(url.slice(url.lastIndexOf('.') + 1));
  });

  it('lists the download in GET /api/audit_events', async () => {
    const s = await submissionOf(owner);
    await seal(owner, s.id);
    await open(await linkUrl(owner, s));
    const res = await api('GET', `/api/audit_events?action=document_link.download&resource_id=${s.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBe(1);
  });

  it('answers 409 with Retry-After while the document is still being sealed', async () => {
    const s = await submissionOf(owner);
    const res = await open(await linkUrl(owner, s));
    expect(res.status).toBe(409);
    expect(res.headers.get('Retry-After')).toBe('60');
  });
});

describe('revoke-all', () => {
  it('stops every link already sent at once, with a page for browsers and JSON otherwise', async () => {
    const account = await createAccount();
    const s = await submissionOf(account);
    await seal(account, s.id);
    const url = await linkUrl(account, s, { expires_in_days: null });
    expect((await open(url)).status).toBe(200);
    expect((await api('POST', '/api/settings/document_links/revoke', { token: account.token })).status).toBe(200);

    const page = await open(url, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(410);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(page.text).toContain('revoked');
    const json = await open(url, { headers: { Accept: 'application/json' } });
    expect(json.status).toBe(410);
    expect(JSON.parse(json.text)).toEqual({ error: 'This link has been revoked by the sender.' });
  });

  it('leaves links minted after the revoke working', async () => {
    const account = await createAccount();
    const s = await submissionOf(account);
    await seal(account, s.id);
    await api('POST', '/api/settings/document_links/revoke', { token: account.token });
    expect((await open(await linkUrl(account, s))).status).toBe(200);
  });

  it('does not touch another account’s links', async () => {
    const account = await createAccount();
    const url = await linkUrl();
    await api('POST', '/api/settings/document_links/revoke', { token: account.token });
    expect((await open(url)).status).toBe(200);
  });
});

/** Waits (up to 5 s) for the messages consumer to send the account's emails, so no send races the move. */
async function messagesSettled(account: TestAccount): Promise<void> {
  const db = await shardOf(account.accountId);
  for (let i = 0; i < 50; i++) {
    const unsent = await db
      .prepare('SELECT count(*) AS n FROM messages WHERE account_id = ? AND sent_at IS NULL')
      .bind(account.accountId)
      .first<number>('n');
    if (unsent === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an account move', () => {
  it('leaves links working, their downloads recorded on the new shard', async () => {
    const account = await createAccount();
    const s = await submissionOf(account);
    await seal(account, s.id);
    const url = await linkUrl(account, s);
    const target = (await shardNumberOf(account.accountId)) === 0 ? 1 : 0;
    await messagesSettled(account);
    expect((await partnerApi('POST', `/accounts/${account.accountId}/move`, { body: { shard: target } })).status).toBe(200);

    const res = await open(url);
    expect(res.status).toBe(200);
    expect(res.bytes).toEqual(await storedPdf(account, s.id, s.documentId));
    expect(await downloadEvents(account, s.id)).toHaveLength(1);
  });
});
