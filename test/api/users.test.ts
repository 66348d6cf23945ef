import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';

describe('GET /api/user', () => {
  it('returns the token owner with its account', async () => {
    const a = await createAccount({ name: 'Acme' });
    const res = await api('GET', '/api/user', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: a.userId, account_id: a.accountId, role: 'admin', account: { id: a.accountId, name: 'Acme', plan: 'pro' } });
    expect(res.headers.get('X-Request-Id')).toMatch(/^req_/);
    expect(res.headers.get('X-API-Version')).toBe('v1');
  });
});
