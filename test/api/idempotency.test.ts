import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/services/idempotency/request-fingerprint';
import { api, createAccount, createToken, shardOf } from '../helpers';

let n = 0;
function newKey() {
  n += 1;
  return `key-${n}-${crypto.randomUUID()}`;
}

function postWithKey(token: string, key: string | undefined, body: unknown = { name: 'CRM' }, path = '/api/access_tokens') {
  return api('POST', path, { token, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
}

async function tokenCount(accountId: number) {
  return (await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM access_tokens WHERE account_id = ?')
    .bind(accountId)
    .first<{ n: number }>())!.n;
}

describe('Idempotency-Key on create operations', () => {
  it('replays the stored status and body with Idempotency-Replayed: true', async () => {
    const a = await createAccount();
    const key = newKey();
    const first = await postWithKey(a.token, key);
    const second = await postWithKey(a.token, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotency-Replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('replays the stored headers but a fresh X-Request-Id', async () => {
    const a = await createAccount();
    const key = newKey();
    const first = await postWithKey(a.token, key);
    const second = await postWithKey(a.token, key);
    expect(second.headers.get('Content-Type')).toBe(first.headers.get('Content-Type'));
    expect(second.headers.get('X-Request-Id')).not.toBe(first.headers.get('X-Request-Id'));
    expect(second.headers.get('X-RateLimit-Remaining')).toBe('118');
  });

  it('creates the resource only once for a replayed request', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key);
    await postWithKey(a.token, key);
    expect(await tokenCount(a.accountId)).toBe(2);
  });

  it('creates exactly one resource from 20 concurrent identical requests with one key', async () => {
    const a = await createAccount();
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => postWithKey(a.token, key)));
    expect(await tokenCount(a.accountId)).toBe(2);
    const created = results.filter((r) => r.status === 201 && r.headers.get('Idempotency-Replayed') === null);
    expect(created).toHaveLength(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
  });

  it('answers 422 to the same key with a different body', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key, { name: 'CRM' });
    const res = await postWithKey(a.token, key, { name: 'ERP' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('This Idempotency-Key was already used for a different request; send a new key with a different body.');
    expect(await tokenCount(a.accountId)).toBe(2);
  });

  it('answers 422 to the same key on a different operation', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key, { email: 'x@example.com' }, '/api/users');
    const res = await postWithKey(a.token, key, { email: 'x@example.com' }, '/api/access_tokens');
    expect(res.status).toBe(422);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const a = await createAccount();
    const key = newKey();
    const tokenId = (await env.CONTROL_DB.prepare('SELECT id FROM access_tokens WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ id: number }>())!.id;
    const body = JSON.stringify({ name: 'CRM' });
    const fingerprint = await requestFingerprint({
      method: 'POST',
      path: '/api/access_tokens',
      search: '',
      contentType: 'application/json',
      body: new TextEncoder().encode(body).buffer as ArrayBuffer,
    });
    // The first request has claimed the key and not finished: exactly the DO state mid-request.
    await env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(`token:${tokenId}`)).begin(key, fingerprint, 60_000);
    const res = await postWithKey(a.token, key, body);
    expect(res.status).toBe(409);
    expect(res.json.error).toBe('A request with this Idempotency-Key is still being processed; retry once it has finished.');
  });

  it('binds keys to the calling token: another token with the same key creates its own', async () => {
    const a = await createAccount();
    const other = await createToken(a.accountId, a.userId);
    const key = newKey();
    const first = await postWithKey(a.token, key);
    const second = await postWithKey(other, key);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotency-Replayed')).toBeNull();
    expect(second.json.id).not.toBe(first.json.id);
  });

  it('treats the same JSON with keys in another order as the same body', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key, '{"name":"CRM","scopes":["users:read"]}');
    const res = await postWithKey(a.token, key, '{ "scopes": ["users:read"], "name": "CRM" }');
    expect(res.headers.get('Idempotency-Replayed')).toBe('true');
  });

  it('treats /api/v1 and /api as the same operation', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key, { name: 'CRM' }, '/api/access_tokens');
    const res = await postWithKey(a.token, key, { name: 'CRM' }, '/api/v1/access_tokens');
    expect(res.headers.get('Idempotency-Replayed')).toBe('true');
  });

  it('replays a validation failure as it was first answered', async () => {
    const a = await createAccount();
    const key = newKey();
    const first = await postWithKey(a.token, key, { name: 'CRM', scopes: ['nope'] });
    const second = await postWithKey(a.token, key, { name: 'CRM', scopes: ['nope'] });
    expect(first.status).toBe(422);
    expect(second.status).toBe(422);
    expect(second.headers.get('Idempotency-Replayed')).toBe('true');
  });

  it('creates a resource per request when no key is sent', async () => {
    const a = await createAccount();
    await postWithKey(a.token, undefined);
    await postWithKey(a.token, undefined);
    expect(await tokenCount(a.accountId)).toBe(3);
  });

  it('answers 422 with a sentence to a key longer than 255 characters', async () => {
    const a = await createAccount();
    const res = await postWithKey(a.token, 'k'.repeat(256));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Idempotency-Key must be 1 to 255 printable ASCII characters, such as a UUID.');
    expect(await tokenCount(a.accountId)).toBe(1);
  });

  it('does not claim the key for a caller refused by scope', async () => {
    const a = await createAccount();
    const scoped = await createToken(a.accountId, a.userId, ['users:read']);
    const key = newKey();
    expect((await postWithKey(scoped, key)).status).toBe(403);
    const tokenId = (await env.CONTROL_DB.prepare('SELECT id FROM access_tokens WHERE scopes = \'["users:read"]\'').first<{
      id: number;
    }>())!.id;
    const outcome = await env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(`token:${tokenId}`)).begin(key, 'probe', 60_000);
    expect(outcome.outcome).toBe('proceed');
  });

  it('records a replay in the audit trail against the original resource', async () => {
    const a = await createAccount();
    const key = newKey();
    const first = await postWithKey(a.token, key);
    await postWithKey(a.token, key);
    const row = await (await shardOf(a.accountId))
      .prepare("SELECT resource_id FROM audit_events WHERE account_id = ? AND action = 'idempotency.replay'")
      .bind(a.accountId)
      .first<{ resource_id: string }>();
    expect(row?.resource_id).toBe(String(first.json.id));
  });

  it('applies to POST /api/users as well', async () => {
    const a = await createAccount();
    const key = newKey();
    await postWithKey(a.token, key, { email: 'twice@example.com' }, '/api/users');
    const res = await postWithKey(a.token, key, { email: 'twice@example.com' }, '/api/users');
    expect(res.status).toBe(201);
    expect(res.headers.get('Idempotency-Replayed')).toBe('true');
  });
});
