// Public document link settings and minting (issue 20 › 1; spec › Public document links).
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyDocumentLink } from '../../src/services/document-links/tokens';
import { addUser, api, createAccount, type TestAccount } from '../helpers';
import { mint, submissionOf, type LinkedSubmission } from '../document-link-fixtures';

const DAY = 86_400_000;

describe('GET and PUT /api/settings/document_links', () => {
  it('starts disabled with links that expire after 30 days', async () => {
    const owner = await createAccount();
    const res = await api('GET', '/api/settings/document_links', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ document_links: { enabled: false, expires_in_days: 30 } });
  });

  it('stores enabled and expires_in_days and reads them back', async () => {
    const owner = await createAccount();
    const put = await api('PUT', '/api/settings/document_links', { token: owner.token, body: { enabled: true, expires_in_days: 7 } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ document_links: { enabled: true, expires_in_days: 7 } });
    expect((await api('GET', '/api/settings/document_links', { token: owner.token })).json).toEqual({
      document_links: { enabled: true, expires_in_days: 7 },
    });
  });

  it('accepts null for links that never expire and keeps fields left out', async () => {
    const owner = await createAccount();
    await api('PUT', '/api/settings/document_links', { token: owner.token, body: { enabled: true } });
    const res = await api('PUT', '/api/settings/document_links', { token: owner.token, body: { expires_in_days: null } });
    expect(res.json).toEqual({ document_links: { enabled: true, expires_in_days: null } });
  });

  it('answers 401 without credentials', async () => {
    expect((await api('GET', '/api/settings/document_links', { token: null })).status).toBe(401);
    expect((await api('PUT', '/api/settings/document_links', { token: null, body: { enabled: true } })).status).toBe(401);
  });

  it('answers 403 naming the scope to a token without account:read or account:write', async () => {
    const owner = await createAccount();
    const reader = await addUser(owner.accountId, 'admin', ['account:read']);
    const outsider = await addUser(owner.accountId, 'admin', ['submissions:read']);
    const get = await api('GET', '/api/settings/document_links', { token: outsider.token });
    expect(get.status).toBe(403);
    expect(get.json.error).toContain('account:read');
    const put = await api('PUT', '/api/settings/document_links', { token: reader.token, body: { enabled: true } });
    expect(put.status).toBe(403);
    expect(put.json.error).toContain('account:write');
  });

  it('answers 403 to a non-admin changing the settings', async () => {
    const owner = await createAccount();
    const editor = await addUser(owner.accountId, 'editor');
    expect((await api('PUT', '/api/settings/document_links', { token: editor.token, body: { enabled: true } })).status).toBe(403);
  });

  it.each([0, 3651])('answers 422 with a sentence for expires_in_days %j', async (value) => {
    const owner = await createAccount();
    const res = await api('PUT', '/api/settings/document_links', { token: owner.token, body: { expires_in_days: value } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toMatch(/expires_in_days/);
  });

  it('answers 400 with a sentence for a value of the wrong type (spec › Errors: invalid type)', async () => {
    const owner = await createAccount();
    const flag = await api('PUT', '/api/settings/document_links', { token: owner.token, body: { enabled: 'yes' } });
    expect(flag.status).toBe(400);
    expect(JSON.stringify(flag.json.error)).toMatch(/enabled/);
    for (const value of ['30', 1.5]) {
      const days = await api('PUT', '/api/settings/document_links', { token: owner.token, body: { expires_in_days: value } });
      expect(days.status).toBe(400);
      expect(JSON.stringify(days.json.error)).toMatch(/expires_in_days/);
    }
  });
});

describe('POST /api/settings/document_links/revoke', () => {
  it('answers the unchanged settings', async () => {
    const owner = await createAccount();
    const res = await api('POST', '/api/settings/document_links/revoke', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ document_links: { enabled: false, expires_in_days: 30 } });
  });

  it('answers 401 without credentials and 403 without account:write', async () => {
    const owner = await createAccount();
    const reader = await addUser(owner.accountId, 'admin', ['account:read']);
    expect((await api('POST', '/api/settings/document_links/revoke', { token: null })).status).toBe(401);
    expect((await api('POST', '/api/settings/document_links/revoke', { token: reader.token })).status).toBe(403);
  });
});

describe('POST /api/submissions/{id}/documents/{document_id}/link', () => {
  let owner: TestAccount;
  let completed: LinkedSubmission;

  beforeAll(async () => {
    owner = await createAccount({ name: 'Links Co' });
    completed = await submissionOf(owner);
  });

  it('mints a /l/ link that expires after the account’s 30 days, even with automatic links off', async () => {
    const before = Date.now();
    const res = await mint(owner, completed);
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(['expires_at', 'url']);
    expect(res.json.url).toMatch(/^https:\/\/api\.test\/l\/[0-9A-Za-z.]+\.[A-Za-z0-9_-]{22}$/);
    const expires = Date.parse(res.json.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY + 1000);
  });

  it('gives the link its own expiry from expires_in_days, or none with null', async () => {
    const week = await mint(owner, completed, { expires_in_days: 7 });
    expect(Date.parse(week.json.expires_at) - Date.now()).toBeLessThanOrEqual(7 * DAY + 1000);
    expect(Date.parse(week.json.expires_at) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    const never = await mint(owner, completed, { expires_in_days: null });
    expect(never.status).toBe(201);
    expect(never.json.expires_at).toBeNull();
  });

  it('mints with the account’s expiry as it is now, leaving links minted before untouched', async () => {
    const account = await createAccount();
    const s = await submissionOf(account);
    const first = await mint(account, s);
    await api('PUT', '/api/settings/document_links', { token: account.token, body: { expires_in_days: 2 } });
    const second = await mint(account, s);
    expect(Date.parse(second.json.expires_at) - Date.now()).toBeLessThanOrEqual(2 * DAY + 1000);
    const firstClaims = await verifyDocumentLink(env.ENCRYPTION_KEY, first.json.url.split('/l/')[1]);
    expect(firstClaims!.expiresAt! * 1000).toBe(Date.parse(first.json.expires_at));
    expect(firstClaims!.expiresAt! * 1000 - Date.now()).toBeGreaterThan(29 * DAY);
  });

  it('answers 404 for another account’s submission', async () => {
    const other = await createAccount();
    const res = await api('POST', `/api/submissions/${completed.id}/documents/${completed.documentId}/link`, { token: other.token });
    expect(res.status).toBe(404);
  });

  it('answers 404 for a document that is not one of the submission’s', async () => {
    const another = await submissionOf(owner);
    const res = await api('POST', `/api/submissions/${completed.id}/documents/${another.documentId}/link`, { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/Document/);
  });

  it('answers 422 for a submission not completed yet', async () => {
    const pending = await submissionOf(owner, { complete: false });
    const res = await mint(owner, pending);
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/not completed/);
  });

  it('answers 422 with a sentence for expires_in_days out of range', async () => {
    const res = await mint(owner, completed, { expires_in_days: 4000 });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toMatch(/expires_in_days/);
  });

  it('answers 401 without credentials and 403 without submissions:write', async () => {
    const reader = await addUser(owner.accountId, 'admin', ['submissions:read']);
    expect((await api('POST', `/api/submissions/${completed.id}/documents/${completed.documentId}/link`, { token: null })).status).toBe(
      401,
    );
    const res = await api('POST', `/api/submissions/${completed.id}/documents/${completed.documentId}/link`, { token: reader.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toContain('submissions:write');
  });
});
