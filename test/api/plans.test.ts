import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';

describe('plan limits on creates', () => {
  it('refuses a second API token on the free plan with 403 and upgrade_url', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'second' } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      error: 'Your free plan allows 1 active API token; revoke one or upgrade.',
      upgrade_url: 'https://api.test/settings/billing',
      code: 'plan_limit_reached',
    });
  });

  it('refuses a second team member on the free plan with 403 and upgrade_url', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('POST', '/api/users', { token: a.token, body: { email: 'new@example.com' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Your free plan allows 1 team member; remove one or upgrade.');
    expect(res.json.upgrade_url).toBe('https://api.test/settings/billing');
  });

  it('adds a team member on the pro plan', async () => {
    const a = await createAccount({ plan: 'pro' });
    const res = await api('POST', '/api/users', { token: a.token, body: { email: 'new@example.com' } });
    expect(res.status).toBe(201);
  });

  it('frees a team-member slot when a member is removed', async () => {
    const a = await createAccount({ plan: 'pro' });
    // The admin plus 24 members fill the pro plan's 25 seats.
    const members = await Promise.all(Array.from({ length: 24 }, () => addUser(a.accountId, 'editor')));
    expect((await api('POST', '/api/users', { token: a.token, body: { email: 'late@example.com' } })).status).toBe(403);
    await api('DELETE', `/api/users/${members[0].userId}`, { token: a.token });
    expect((await api('POST', '/api/users', { token: a.token, body: { email: 'late@example.com' } })).status).toBe(201);
  });

  it('answers a Pro-only feature on a free account with 403 and upgrade_url', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.upgrade_url).toBe('https://api.test/settings/billing');
  });
});
