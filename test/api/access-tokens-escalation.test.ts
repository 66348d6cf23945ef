// POST /api/access_tokens never mints a token with more rights than the token that asks (issue 21 › 4).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount, createToken } from '../helpers';

const MINT_IP = '203.0.113.40';

/** A token of a fresh admin with the given limits, and a function minting through it from MINT_IP. */
async function callerWith(limits: { scopes?: string[]; allowedIps?: string[]; expiresAt?: string }) {
  const a = await createAccount();
  const token = await createToken(a.accountId, a.userId, limits.scopes ?? [], {
    allowedIps: limits.allowedIps,
    expiresAt: limits.expiresAt,
  });
  const mint = (body: Record<string, unknown>) =>
    api('POST', '/api/access_tokens', { token, ip: MINT_IP, body: { name: 'minted', ...body } });
  return { ...a, token, mint };
}

async function tokenCount(accountId: number) {
  return (await env.CONTROL_DB.prepare('SELECT COUNT(*) AS n FROM access_tokens WHERE account_id = ?')
    .bind(accountId)
    .first<{ n: number }>())!.n;
}

const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();
const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString();

describe('scopes of a minted token', () => {
  it('refuses a full-access token (scopes []) to a token holding only account:write, with 403 and a sentence', async () => {
    const caller = await callerWith({ scopes: ['account:write'] });
    const res = await caller.mint({ scopes: [] });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(
      'A token limited to scopes account:write cannot create a full-access token; list the scopes the new token needs, within those.',
    );
  });

  it('treats omitted scopes as full access and refuses them to a scoped token', async () => {
    const caller = await callerWith({ scopes: ['account:write'] });
    const res = await caller.mint({});
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/cannot create a full-access token/);
  });

  it('refuses scopes the caller does not hold, naming them', async () => {
    const caller = await callerWith({ scopes: ['account:write', 'templates:read'] });
    const res = await caller.mint({ scopes: ['templates:read', 'templates:write', 'webhooks:write'] });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(
      'This token cannot grant scopes templates:write, webhooks:write, which it does not hold itself (it holds account:write, templates:read).',
    );
  });

  it('stores nothing when it refuses', async () => {
    const caller = await callerWith({ scopes: ['account:write'] });
    const before = await tokenCount(caller.accountId);
    expect((await caller.mint({ scopes: ['users:read'] })).status).toBe(403);
    expect(await tokenCount(caller.accountId)).toBe(before);
  });

  it('mints a token with a subset of the caller’s scopes', async () => {
    const caller = await callerWith({ scopes: ['account:write', 'templates:read'] });
    const res = await caller.mint({ scopes: ['templates:read'] });
    expect(res.status).toBe(201);
    expect(res.json.scopes).toEqual(['templates:read']);
  });

  it('lets a full-access token mint any scopes, or full access', async () => {
    const caller = await callerWith({});
    expect((await caller.mint({ scopes: ['webhooks:write'] })).status).toBe(201);
    expect((await caller.mint({ scopes: [] })).status).toBe(201);
  });

  it('bounds a token an admin mints for another user by the admin’s own token', async () => {
    const caller = await callerWith({ scopes: ['account:write'] });
    const member = await addUser(caller.accountId, 'editor');
    const res = await caller.mint({ user_id: member.userId, scopes: ['submissions:write'] });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/cannot grant scope submissions:write/);
  });
});

describe('allowed_ips of a minted token', () => {
  it('refuses a token usable from any IP to a caller with an allow-list', async () => {
    const caller = await callerWith({ allowedIps: ['203.0.113.0/24'] });
    const res = await caller.mint({ allowed_ips: [] });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(
      'A token limited to IPs 203.0.113.0/24 cannot create a token usable from any IP; set allowed_ips within those.',
    );
  });

  it('refuses addresses and ranges outside the caller’s allow-list, naming them', async () => {
    const caller = await callerWith({ allowedIps: ['203.0.113.0/24'] });
    const res = await caller.mint({ allowed_ips: ['203.0.113.7', '198.51.100.1', '203.0.112.0/23'] });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe("allowed_ips 198.51.100.1, 203.0.112.0/23 are outside this token's own allow-list (203.0.113.0/24).");
  });

  it('mints a token limited to addresses and narrower ranges within the caller’s list', async () => {
    const caller = await callerWith({ allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const res = await caller.mint({ allowed_ips: ['203.0.113.40', '203.0.113.128/25', '2001:db8:1::/48', '::ffff:203.0.113.9'] });
    expect(res.status).toBe(201);
    expect(res.json.allowed_ips).toEqual(['203.0.113.40', '203.0.113.128/25', '2001:db8:1::/48', '::ffff:cb00:7109']);
  });
});

describe('expires_at of a minted token', () => {
  it('refuses a token that never expires to a caller that expires', async () => {
    const expiresAt = inOneDay();
    const caller = await callerWith({ expiresAt });
    const res = await caller.mint({});
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(
      `A token that expires at ${expiresAt} cannot create a token that never expires; set expires_at no later than that.`,
    );
  });

  it('refuses an expiry later than the caller’s own', async () => {
    const expiresAt = inOneDay();
    const caller = await callerWith({ expiresAt });
    const later = inTwoDays();
    const res = await caller.mint({ expires_at: later });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(`expires_at ${later} is later than this token's own expiry (${expiresAt}).`);
  });

  it('mints a token expiring no later than the caller', async () => {
    const expiresAt = inOneDay();
    const caller = await callerWith({ expiresAt });
    expect((await caller.mint({ expires_at: expiresAt })).status).toBe(201);
  });
});

describe('several refusals', () => {
  it('are listed together, one sentence each', async () => {
    const caller = await callerWith({ scopes: ['account:write'], allowedIps: ['203.0.113.0/24'], expiresAt: inOneDay() });
    const res = await caller.mint({});
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual([
      expect.stringMatching(/cannot create a full-access token/),
      expect.stringMatching(/cannot create a token usable from any IP/),
      expect.stringMatching(/cannot create a token that never expires/),
    ]);
  });

  it('cannot be escaped by minting in steps: a minted token is bounded by its own rights', async () => {
    const caller = await callerWith({ scopes: ['account:write', 'templates:read'] });
    const child = await caller.mint({ scopes: ['account:write'] });
    expect(child.status).toBe(201);
    const grandchild = await api('POST', '/api/access_tokens', {
      token: child.json.token,
      body: { name: 'x', scopes: ['templates:read'] },
    });
    expect(grandchild.status).toBe(403);
  });
});
