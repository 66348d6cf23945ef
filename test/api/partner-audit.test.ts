// Partner actions appear in the tenant account's audit trail, attributed to the partner key's prefix.
import { describe, expect, it } from 'vitest';
import { api, createAccount, partnerApi, partnerKeys } from '../helpers';
import { partnerKeyPrefix } from '../../src/middleware/partner-auth';

async function partnerAccount(plan = 'pro') {
  const created = await partnerApi('POST', '/accounts', { body: { name: 'Audited Co', plan } });
  expect(created.status).toBe(201);
  return created.json.id as number;
}

/** The account's trail as its own admin sees it (a token minted by the partner, which is itself recorded). */
async function trail(accountId: number, action: string) {
  const minted = await partnerApi('POST', `/accounts/${accountId}/access_tokens`, { body: { email: 'owner@audited.example' } });
  expect(minted.status).toBe(201);
  const res = await api('GET', `/api/audit_events?action=${action}`, { token: minted.json.token });
  expect(res.status).toBe(200);
  return res.json.data as Record<string, unknown>[];
}

describe('partner actions in the tenant audit trail', () => {
  it('records creating the account, by the partner key’s prefix', async () => {
    const id = await partnerAccount();
    expect(await trail(id, 'partner.account.create')).toEqual([
      expect.objectContaining({
        action: 'partner.account.create',
        actor: partnerKeyPrefix(partnerKeys()[0]),
        resource_type: 'account',
        resource_id: String(id),
        user_id: null,
        access_token_id: null,
        method: 'POST',
        path: '/api/partner/v1/accounts',
        status: 201,
      }),
    ]);
  });

  it('records updating the account with the status it answered', async () => {
    const id = await partnerAccount();
    expect((await partnerApi('PATCH', `/accounts/${id}`, { body: { name: 'Renamed Co' } })).status).toBe(200);
    expect(await trail(id, 'partner.account.update')).toEqual([
      expect.objectContaining({ actor: partnerKeyPrefix(partnerKeys()[0]), resource_id: String(id), method: 'PATCH', status: 200 }),
    ]);
  });

  it('records minting a token, naming the minted token', async () => {
    const id = await partnerAccount();
    const minted = await partnerApi('POST', `/accounts/${id}/access_tokens`, { body: { email: 'ops@audited.example', token_name: 'ops' } });
    const rows = await trail(id, 'partner.access_token.create');
    expect(rows).toContainEqual(
      expect.objectContaining({
        actor: partnerKeyPrefix(partnerKeys()[0]),
        resource_type: 'access_token',
        resource_id: String(minted.json.id),
        status: 201,
      }),
    );
  });

  it('shows no more of a partner key than its prefix', () => {
    expect(partnerKeyPrefix('ptk_abcdefghijklmnopqrstuvwxyz')).toBe('ptk_abcdefgh');
    // A short key is never shown whole: at most a third of what follows ptk_.
    expect(partnerKeyPrefix('ptk_abcdef')).toBe('ptk_ab');
  });

  it('keeps partner actions on other accounts out of this account’s trail', async () => {
    const mine = await partnerAccount();
    const other = await partnerAccount();
    await partnerApi('PATCH', `/accounts/${other}`, { body: { name: 'Other Co' } });
    expect(await trail(mine, 'partner.account.update')).toEqual([]);
  });

  it('attributes tenant requests to the calling token’s prefix', async () => {
    const a = await createAccount();
    await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'second' } });
    const res = await api('GET', '/api/audit_events?action=access_token.create', { token: a.token });
    expect(res.json.data[0].actor).toBe(a.token.slice(0, 12));
  });
});
