import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';

describe('rate limiting per API token', () => {
  it('admits exactly 120 of 200 concurrent requests on one token', async () => {
    const a = await createAccount();
    const results = await Promise.all(Array.from({ length: 200 }, () => api('GET', '/api/user', { token: a.token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    expect(results.filter((r) => r.status === 429)).toHaveLength(80);
  });
});
