// Counted plan limits are exact when creates race: Promise.all of real requests at the limit boundary.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

/** Counts on the database holding the table: the control database for tokens and users, the account's shard otherwise. */
async function count(sqlText: string, accountId: number): Promise<number> {
  const control = /FROM (access_tokens|users) /.test(sqlText);
  const db = control ? env.CONTROL_DB : await shardOf(accountId);
  const row = await db.prepare(sqlText).bind(accountId).first<{ n: number }>();
  return row!.n;
}

function statuses(results: { status: number }[]): Record<number, number> {
  const tally: Record<number, number> = {};
  for (const { status } of results) tally[status] = (tally[status] ?? 0) + 1;
  return tally;
}

describe('plan limits under concurrent creates', () => {
  it('creates exactly up to the template limit when 6 creates race with 3 of 5 used', async () => {
    const a = await createAccount({ plan: 'free' });
    const file = toBase64(await makePdf());
    for (let i = 0; i < 3; i += 1) {
      expect((await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })).status).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api('POST', '/api/templates/pdf', { token: a.token, body: { name: `race ${i}`, documents: [{ file }] } }),
      ),
    );
    expect(statuses(results)).toEqual({ 201: 2, 403: 4 });
    expect(results.find((r) => r.status === 403)!.json.error).toBe('Your free plan allows 5 active templates; archive one or upgrade.');
    expect(await count('SELECT count(*) AS n FROM templates WHERE account_id = ? AND archived_at IS NULL', a.accountId)).toBe(5);
  });

  it('leaves no stored files, rows or events behind for the refused creates', async () => {
    const a = await createAccount({ plan: 'free' });
    const file = toBase64(await makePdf());
    for (let i = 0; i < 4; i += 1) {
      expect((await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })).status).toBe(201);
    }
    await Promise.all(
      Array.from({ length: 4 }, () => api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })),
    );
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    expect(listed.objects).toHaveLength(5);
    expect(await count('SELECT count(*) AS n FROM template_documents WHERE account_id = ?', a.accountId)).toBe(5);
    expect(await count("SELECT count(*) AS n FROM events WHERE account_id = ? AND event = 'template.created'", a.accountId)).toBe(5);
  });

  it('restores exactly up to the template limit when 3 restores race with 4 of 5 active', async () => {
    const a = await createAccount({ plan: 'free' });
    const file = toBase64(await makePdf());
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })).json.id);
    }
    for (const id of ids.slice(0, 3)) expect((await api('DELETE', `/api/templates/${id}`, { token: a.token })).status).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      expect((await api('POST', '/api/templates/pdf', { token: a.token, body: { documents: [{ file }] } })).status).toBe(201);
    }
    const results = await Promise.all(
      ids.slice(0, 3).map((id) => api('PUT', `/api/templates/${id}`, { token: a.token, body: { archived: false } })),
    );
    expect(statuses(results)).toEqual({ 200: 1, 403: 2 });
    expect(await count('SELECT count(*) AS n FROM templates WHERE account_id = ? AND archived_at IS NULL', a.accountId)).toBe(5);
  });

  it('issues exactly up to the access-token limit when 5 creates race with 48 of 50 used', async () => {
    const a = await createAccount({ plan: 'pro' });
    for (let i = 0; i < 47; i += 1) await createToken(a.accountId, a.userId);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api('POST', '/api/access_tokens', { token: a.token, body: { name: `race ${i}` } })),
    );
    expect(statuses(results)).toEqual({ 201: 2, 403: 3 });
    expect(results.find((r) => r.status === 403)!.json).toEqual({
      error: 'Your pro plan allows 50 active API tokens; revoke one or upgrade.',
      upgrade_url: 'https://api.test/settings/billing',
      code: 'plan_limit_reached',
    });
    expect(await count('SELECT count(*) AS n FROM access_tokens WHERE account_id = ? AND revoked_at IS NULL', a.accountId)).toBe(50);
  });

  it('adds exactly up to the team-member limit when 5 invitations race with 23 of 25 used', async () => {
    const a = await createAccount({ plan: 'pro' });
    for (let i = 0; i < 22; i += 1) {
      await env.CONTROL_DB.prepare("INSERT INTO users (account_id, email, name, role) VALUES (?, ?, 'Member', 'editor')")
        .bind(a.accountId, `existing${i}@example.com`)
        .run();
    }
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api('POST', '/api/users', { token: a.token, body: { email: `race${i}@example.com` } })),
    );
    expect(statuses(results)).toEqual({ 201: 2, 403: 3 });
    expect(results.find((r) => r.status === 403)!.json.error).toBe('Your pro plan allows 25 team members; remove one or upgrade.');
    expect(await count('SELECT count(*) AS n FROM users WHERE account_id = ? AND archived_at IS NULL', a.accountId)).toBe(25);
  });
});
