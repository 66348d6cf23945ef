import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount, partnerApi, partnerKeys } from '../helpers';

async function newAccount(body: Record<string, unknown> = {}) {
  const res = await partnerApi('POST', '/accounts', { body: { name: 'Partner Co', ...body } });
  expect(res.status).toBe(201);
  return res.json as { id: number; name: string; plan: string };
}

describe('partner control plane authentication', () => {
  it('answers 401 without a key', async () => {
    const res = await partnerApi('GET', '/accounts', { key: null });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'unauthorized', message: 'Provide a partner key as Authorization: Bearer ptk_….', status: 401 });
  });

  it('answers 401 to a tenant API token', async () => {
    const a = await createAccount();
    const res = await partnerApi('GET', '/accounts', { key: a.token });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('Tenant API tokens are not accepted on the partner API; use a partner key (ptk_…).');
  });

  it('answers 401 to a tenant token sent as X-Auth-Token', async () => {
    const a = await createAccount();
    const res = await partnerApi('GET', '/accounts', { key: null, headers: { 'X-Auth-Token': a.token } });
    expect(res.status).toBe(401);
  });

  it('answers 401 to an unknown partner key', async () => {
    const res = await partnerApi('GET', '/accounts', { key: 'ptk_notConfigured000000000000000000000' });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The partner key is not valid.');
  });

  it('accepts every key of the comma-separated PARTNER_API_KEYS', async () => {
    expect((await partnerApi('GET', '/accounts', { key: partnerKeys()[1] })).status).toBe(200);
  });

  it('refuses a partner key on tenant routes with 401', async () => {
    const res = await api('GET', '/api/user', { token: partnerKeys()[0] });
    expect(res.status).toBe(401);
  });

  it('answers with X-API-Version: partner-v1', async () => {
    const res = await partnerApi('GET', '/accounts');
    expect(res.headers.get('X-API-Version')).toBe('partner-v1');
  });

  it('answers an unknown partner path with 404 once authenticated', async () => {
    const res = await partnerApi('GET', '/nothing-here');
    expect(res.status).toBe(404);
  });

  it('answers an unknown partner path with 401 without a key', async () => {
    expect((await partnerApi('GET', '/nothing-here', { key: null })).status).toBe(401);
  });
});

describe('partner rate limit', () => {
  it('admits exactly 100 requests a minute on one key under concurrency, with the headers', async () => {
    const key = partnerKeys()[1];
    // Other tests in this file use the key too: count from what the window still holds.
    const first = await partnerApi('GET', '/accounts?limit=1', { key });
    expect(first.headers.get('X-RateLimit-Limit')).toBe('100');
    const remaining = Number(first.headers.get('X-RateLimit-Remaining'));
    const results = await Promise.all(Array.from({ length: remaining + 30 }, () => partnerApi('GET', '/accounts?limit=1', { key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(remaining);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.headers.get('X-RateLimit-Limit')).toBe('100');
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(refused.json.error).toMatch(/^Rate limit of 100 requests per 60 seconds exceeded; retry in \d+ seconds?\.$/);
  });
});

describe('POST /api/partner/v1/accounts', () => {
  it('creates an account on the free plan by default', async () => {
    const res = await partnerApi('POST', '/accounts', { body: { name: 'Acme' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Acme', plan: 'free', suspended: false, suspended_at: null, locale: 'en-US', timezone: 'UTC' });
  });

  it('creates an account on the plan given', async () => {
    expect((await newAccount({ plan: 'enterprise' })).plan).toBe('enterprise');
  });

  it('answers 422 naming the plans for an unknown plan', async () => {
    const res = await partnerApi('POST', '/accounts', { body: { name: 'Acme', plan: 'gold' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('plan must be one of: free, pro, enterprise.');
  });

  it('answers 400 when name is missing', async () => {
    const res = await partnerApi('POST', '/accounts', { body: {} });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('name is required.');
  });

  it('answers 400 to a body that is not JSON, creating nothing', async () => {
    const before = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM accounts').first<{ n: number }>();
    const res = await partnerApi('POST', '/accounts', { body: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM accounts').first<{ n: number }>()).toEqual(before);
  });

  it('replays a retried create with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await partnerApi('POST', '/accounts', { body: { name: 'Once' }, headers });
    const second = await partnerApi('POST', '/accounts', { body: { name: 'Once' }, headers });
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
    expect(second.json.id).toBe(first.json.id);
  });
});

describe('GET /api/partner/v1/accounts', () => {
  it('lists accounts newest first with cursor pagination', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const page = await partnerApi('GET', '/accounts?limit=1');
    expect(page.status).toBe(200);
    expect(page.json.data[0].id).toBe(second.id);
    const next = await partnerApi('GET', `/accounts?limit=1&after=${page.json.pagination.next}`);
    expect(next.json.data[0].id).toBe(first.id);
  });

  it('filters by plan', async () => {
    await newAccount({ plan: 'enterprise' });
    const res = await partnerApi('GET', '/accounts?plan=enterprise&limit=100');
    expect(res.json.data.length).toBeGreaterThan(0);
    expect(res.json.data.every((acc: { plan: string }) => acc.plan === 'enterprise')).toBe(true);
  });

  it('filters suspended accounts', async () => {
    const acc = await newAccount();
    await partnerApi('PATCH', `/accounts/${acc.id}`, { body: { suspended: true } });
    const res = await partnerApi('GET', '/accounts?suspended=true&limit=100');
    expect(res.json.data.map((x: { id: number }) => x.id)).toContain(acc.id);
    expect(res.json.data.every((x: { suspended: boolean }) => x.suspended)).toBe(true);
  });

  it('answers 422 to a limit above 100', async () => {
    const res = await partnerApi('GET', '/accounts?limit=101');
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('limit must be between 1 and 100.');
  });
});

describe('GET /api/partner/v1/accounts/{id}', () => {
  it('returns the account', async () => {
    const acc = await newAccount({ name: 'Lookup' });
    const res = await partnerApi('GET', `/accounts/${acc.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: acc.id, name: 'Lookup' });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await partnerApi('GET', '/accounts/999999');
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Account not found.');
  });
});

describe('PATCH /api/partner/v1/accounts/{id}', () => {
  it('changes the name and plan', async () => {
    const acc = await newAccount();
    const res = await partnerApi('PATCH', `/accounts/${acc.id}`, { body: { name: 'Renamed', plan: 'pro' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Renamed', plan: 'pro' });
  });

  it('makes the account’s plan apply to its tenant API at once', async () => {
    const a = await createAccount({ plan: 'free' });
    await partnerApi('PATCH', `/accounts/${a.accountId}`, { body: { plan: 'pro' } });
    expect((await api('GET', '/api/audit_events', { token: a.token })).status).toBe(200);
  });

  it('suspends an account so its tokens get 403', async () => {
    const a = await createAccount();
    const res = await partnerApi('PATCH', `/accounts/${a.accountId}`, { body: { suspended: true } });
    expect(res.json).toMatchObject({ suspended: true, suspended_at: expect.any(String) });
    const tenant = await api('GET', '/api/user', { token: a.token });
    expect(tenant.status).toBe(403);
    expect(tenant.json.error).toBe('This account is suspended; its API tokens are refused until the operator lifts the suspension.');
  });

  it('lifts a suspension so the tokens work again', async () => {
    const a = await createAccount();
    await partnerApi('PATCH', `/accounts/${a.accountId}`, { body: { suspended: true } });
    const res = await partnerApi('PATCH', `/accounts/${a.accountId}`, { body: { suspended: false } });
    expect(res.json).toMatchObject({ suspended: false, suspended_at: null });
    expect((await api('GET', '/api/user', { token: a.token })).status).toBe(200);
  });

  it('keeps the first suspension time when suspended twice', async () => {
    const acc = await newAccount();
    const first = await partnerApi('PATCH', `/accounts/${acc.id}`, { body: { suspended: true } });
    const second = await partnerApi('PATCH', `/accounts/${acc.id}`, { body: { suspended: true } });
    expect(second.json.suspended_at).toBe(first.json.suspended_at);
  });

  it('answers 422 to an empty body', async () => {
    const acc = await newAccount();
    const res = await partnerApi('PATCH', `/accounts/${acc.id}`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Send at least one of name, plan, suspended.');
  });

  it('answers 400 to suspended that is not a boolean', async () => {
    const acc = await newAccount();
    const res = await partnerApi('PATCH', `/accounts/${acc.id}`, { body: { suspended: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('suspended must be a boolean.');
  });

  it('answers 404 for an unknown id', async () => {
    expect((await partnerApi('PATCH', '/accounts/999999', { body: { name: 'x' } })).status).toBe(404);
  });
});

describe('POST /api/partner/v1/accounts/{id}/access_tokens', () => {
  it('creates the admin from the email and mints a token that works on the tenant API', async () => {
    const acc = await newAccount();
    const res = await partnerApi('POST', `/accounts/${acc.id}/access_tokens`, { body: { email: 'owner@partner.example', name: 'Owner' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      account_id: acc.id,
      token: expect.stringMatching(/^tok_/),
      user: { email: 'owner@partner.example', role: 'admin', created: true },
    });
    const me = await api('GET', '/api/user', { token: res.json.token });
    expect(me.json).toMatchObject({ email: 'owner@partner.example', role: 'admin', account_id: acc.id });
  });

  it('mints for the existing first admin when no email is given', async () => {
    const a = await createAccount();
    const res = await partnerApi('POST', `/accounts/${a.accountId}/access_tokens`, { body: {} });
    expect(res.status).toBe(201);
    expect(res.json.user).toMatchObject({ id: a.userId, created: false });
  });

  it('mints beyond the free plan’s token limit (operator recovery)', async () => {
    const a = await createAccount({ plan: 'free' });
    expect((await partnerApi('POST', `/accounts/${a.accountId}/access_tokens`, { body: {} })).status).toBe(201);
  });

  it('answers 422 when the account has no admin and no email is given', async () => {
    const acc = await newAccount();
    const res = await partnerApi('POST', `/accounts/${acc.id}/access_tokens`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The account has no admin yet; pass email to create one and mint their token.');
  });

  it('answers 422 when the email belongs to a non-admin', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const email = (await env.CONTROL_DB.prepare('SELECT email FROM users WHERE id = ?').bind(editor.userId).first<{ email: string }>())!
      .email;
    const res = await partnerApi('POST', `/accounts/${a.accountId}/access_tokens`, { body: { email } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`${email} is an editor of this account, not an admin; make them an admin first or use another email.`);
  });

  it('answers 422 with a sentence for an invalid email', async () => {
    const acc = await newAccount();
    const res = await partnerApi('POST', `/accounts/${acc.id}/access_tokens`, { body: { email: 'not-an-email' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('email must be a valid email address.');
  });

  it('answers 404 for an unknown account', async () => {
    const res = await partnerApi('POST', '/accounts/999999/access_tokens', { body: { email: 'x@example.com' } });
    expect(res.status).toBe(404);
  });
});

describe('partner OpenAPI document', () => {
  it('is served at /api/partner/v1/openapi.json with the account paths', async () => {
    const res = await api('GET', '/api/partner/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.paths)).toEqual(expect.arrayContaining(['/accounts', '/accounts/{id}', '/accounts/{id}/access_tokens']));
    expect(res.json.components.securitySchemes.PartnerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
