import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';

describe('GET /api/settings/account', () => {
  it('returns the account', async () => {
    const a = await createAccount({ name: 'Acme' });
    const res = await api('GET', '/api/settings/account', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.account).toMatchObject({
      id: a.accountId,
      name: 'Acme',
      locale: 'en-US',
      timezone: 'UTC',
      mfa_enforced: false,
      plan: 'pro',
    });
  });

  it('answers 403 without account:read', async () => {
    const a = await createAccount({ scopes: ['users:read'] });
    expect((await api('GET', '/api/settings/account', { token: a.token })).status).toBe(403);
  });
});

describe('PUT /api/settings/account', () => {
  it('updates name, locale, time zone and MFA enforcement', async () => {
    const a = await createAccount();
    // Only an admin who has MFA may require it (docs/mfa.md › Enforcement).
    await env.CONTROL_DB.prepare("UPDATE users SET mfa_enabled_at = '2026-11-25T00:00:00.000Z' WHERE id = ?").bind(a.userId).run();
    const res = await api('PUT', '/api/settings/account', {
      token: a.token,
      body: { name: 'Acme GmbH', locale: 'de-de', timezone: 'Europe/Berlin', mfa_enforced: true },
    });
    expect(res.status).toBe(200);
    expect(res.json.account).toMatchObject({ name: 'Acme GmbH', locale: 'de-DE', timezone: 'Europe/Berlin', mfa_enforced: true });
    const again = await api('GET', '/api/settings/account', { token: a.token });
    expect(again.json.account.timezone).toBe('Europe/Berlin');
  });

  it('leaves fields that are not sent unchanged', async () => {
    const a = await createAccount({ name: 'Keep' });
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { timezone: 'Asia/Tokyo' } });
    expect(res.json.account).toMatchObject({ name: 'Keep', timezone: 'Asia/Tokyo' });
  });

  it('rejects an unknown time zone and a malformed locale with sentences', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { timezone: 'Mars/Olympus', locale: 'not a locale' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'locale must be a BCP 47 language tag such as en-US or de.',
      'timezone must be an IANA time zone such as Europe/Berlin or UTC.',
    ]);
  });

  it('answers 400 when mfa_enforced is not a boolean', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { mfa_enforced: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('mfa_enforced must be a boolean.');
  });

  it('refuses non-admins with 403', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const res = await api('PUT', '/api/settings/account', { token: editor.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
  });

  it('answers 403 without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    expect((await api('PUT', '/api/settings/account', { token: a.token, body: { name: 'x' } })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('PUT', '/api/settings/account', { body: { name: 'x' } })).status).toBe(401);
  });
});
