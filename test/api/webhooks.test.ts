import { describe, expect, it } from 'vitest';
import { api, createAccount, shardOf } from '../helpers';
import { newReceiver } from '../webhook-receiver';

const HOOK_URL = 'https://hooks.example.com/signing';

async function createHook(token: string, body: Record<string, unknown> = {}) {
  return api('POST', '/api/webhooks', { token, body: { url: HOOK_URL, ...body } });
}

describe('POST /api/webhooks', () => {
  it('creates an endpoint subscribed to every event with a generated secret', async () => {
    const a = await createAccount();
    const res = await createHook(a.token);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ url: HOOK_URL, events: [], enabled: true });
    expect(res.json.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(Object.keys(res.json).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'secret', 'updated_at', 'url']);
  });

  it('keeps the events and secret the caller chose, without duplicates', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, {
      events: ['form.completed', 'form.completed', 'template.created'],
      secret: 'my-own-secret-0123456789',
      enabled: false,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ events: ['form.completed', 'template.created'], secret: 'my-own-secret-0123456789', enabled: false });
  });

  it('answers 401 without a token', async () => {
    expect((await createHook('')).status).toBe(401);
  });

  it('answers 403 naming webhooks:write when the token lacks it', async () => {
    const a = await createAccount({ scopes: ['webhooks:read'] });
    const res = await createHook(a.token);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: webhooks:write');
  });

  it('answers 403 with an upgrade_url on the free plan', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await createHook(a.token);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Webhooks requires the Pro plan.');
    expect(res.json.upgrade_url).toMatch(/\/settings\/billing$/);
  });

  it('answers 422 naming an unknown event', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, { events: ['form.completed', 'form.exploded'] });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^events has unknown name "form\.exploded"; valid names are form\.created, /);
  });

  it('answers 422 for a secret that cannot travel in a header', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, { secret: 'short\r\nX-Evil: 1' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^secret must be 16 to 128 visible ASCII characters/);
  });

  it('answers 422 naming the reason for a blocked URL', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, { url: 'http://169.254.169.254/latest/meta-data' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'url points to 169.254.169.254, link-local, where cloud metadata services live (169.254.0.0/16), which webhooks may not call.',
    );
  });

  it('answers 400 when url is missing', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/webhooks', { token: a.token, body: { events: [] } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('url is required.');
  });

  it('answers 400 for a body that is not JSON, and stores nothing', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/webhooks', { token: a.token, body: '{"url": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    const { n } = (await (
      await shardOf(a.accountId)
    )
      .prepare('SELECT count(*) AS n FROM webhooks WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it('accepts the loopback receiver only through WEBHOOK_ALLOW_HOSTS', async () => {
    const a = await createAccount();
    const { url } = await newReceiver();
    expect((await createHook(a.token, { url })).status).toBe(201);
    expect((await createHook(a.token, { url: url.replace(/:\d+\//, ':1/') })).status).toBe(422);
  });

  it('refuses a 51st endpoint with 422', async () => {
    const a = await createAccount();
    const values = Array.from({ length: 50 }, () => `(${a.accountId}, '${HOOK_URL}', '[]', 'whsec_x')`).join(',');
    await (await shardOf(a.accountId)).prepare(`INSERT INTO webhooks (account_id, url, events, secret) VALUES ${values}`).run();
    const res = await createHook(a.token);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('An account can have at most 50 webhook endpoints; delete one first.');
  });
});

describe('GET /api/webhooks', () => {
  it('lists the account’s endpoints newest first with cursor pagination', async () => {
    const a = await createAccount();
    const other = await createAccount();
    const first = (await createHook(a.token)).json;
    const second = (await createHook(a.token)).json;
    await createHook(other.token);
    const res = await api('GET', '/api/webhooks?limit=1', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((h: { id: number }) => h.id)).toEqual([second.id]);
    expect(res.json.pagination).toEqual({ count: 1, next: second.id, prev: null });
    const next = await api('GET', `/api/webhooks?limit=1&after=${second.id}`, { token: a.token });
    expect(next.json.data.map((h: { id: number }) => h.id)).toEqual([first.id]);
  });

  it('answers 403 when the token has neither webhooks scope', async () => {
    const a = await createAccount({ scopes: ['users:read'] });
    const res = await api('GET', '/api/webhooks', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: webhooks:read');
  });

  it('answers 422 for a limit over 100', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/webhooks?limit=101', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('limit must be between 1 and 100.');
  });
});

describe('GET /api/webhooks/{id}', () => {
  it('returns the endpoint', async () => {
    const a = await createAccount();
    const hook = (await createHook(a.token)).json;
    const res = await api('GET', `/api/webhooks/${hook.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(hook);
  });

  it('answers 404 for another account’s endpoint', async () => {
    const a = await createAccount();
    const other = await createAccount();
    const hook = (await createHook(other.token)).json;
    expect((await api('GET', `/api/webhooks/${hook.id}`, { token: a.token })).status).toBe(404);
  });

  it('answers 401 for an unknown token', async () => {
    expect((await api('GET', '/api/webhooks/1', { token: 'tok_nope' })).status).toBe(401);
  });
});

describe('PUT /api/webhooks/{id}', () => {
  it('changes only the fields sent', async () => {
    const a = await createAccount();
    const hook = (await createHook(a.token, { events: ['form.viewed'] })).json;
    const res = await api('PUT', `/api/webhooks/${hook.id}`, { token: a.token, body: { enabled: false, events: [] } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: hook.id, url: HOOK_URL, secret: hook.secret, enabled: false, events: [] });
  });

  it('answers 422 for a blocked URL and leaves the endpoint unchanged', async () => {
    const a = await createAccount();
    const hook = (await createHook(a.token)).json;
    const res = await api('PUT', `/api/webhooks/${hook.id}`, { token: a.token, body: { url: 'https://localhost./x', enabled: false } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('url points to localhost (localhost.), which webhooks may not call.');
    expect((await api('GET', `/api/webhooks/${hook.id}`, { token: a.token })).json).toEqual(hook);
  });

  it('answers 404 for another account’s endpoint', async () => {
    const a = await createAccount();
    const other = await createAccount();
    const hook = (await createHook(other.token)).json;
    expect((await api('PUT', `/api/webhooks/${hook.id}`, { token: a.token, body: { enabled: false } })).status).toBe(404);
  });

  it('answers 403 for a read-only token', async () => {
    const a = await createAccount({ scopes: ['webhooks:read'] });
    expect((await api('PUT', '/api/webhooks/1', { token: a.token, body: { enabled: false } })).status).toBe(403);
  });
});

describe('DELETE /api/webhooks/{id}', () => {
  it('deletes the endpoint: 204, then 404', async () => {
    const a = await createAccount();
    const hook = (await createHook(a.token)).json;
    const res = await api('DELETE', `/api/webhooks/${hook.id}`, { token: a.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api('GET', `/api/webhooks/${hook.id}`, { token: a.token })).status).toBe(404);
  });

  it('answers 404 for another account’s endpoint and keeps it', async () => {
    const a = await createAccount();
    const other = await createAccount();
    const hook = (await createHook(other.token)).json;
    expect((await api('DELETE', `/api/webhooks/${hook.id}`, { token: a.token })).status).toBe(404);
    expect((await api('GET', `/api/webhooks/${hook.id}`, { token: other.token })).status).toBe(200);
  });

  it('answers 400 for an id that is not a number', async () => {
    const a = await createAccount();
    const res = await api('DELETE', '/api/webhooks/abc', { token: a.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('id must be an integer id.');
  });
});

describe('the API surface', () => {
  it('declares every webhook route in the OpenAPI document', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(
      Object.keys(res.json.paths)
        .filter((p) => p.startsWith('/webhooks'))
        .sort(),
    ).toEqual([
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/deliveries',
      '/webhooks/{id}/deliveries/{delivery_id}',
      '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      '/webhooks/{id}/test',
    ]);
    expect(res.json.components.schemas.WebhookDelivery.properties.delivery_uuid).toBeDefined();
  });

  it('serves the same routes under /api/v1', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/v1/webhooks', { token: a.token, body: { url: HOOK_URL } });
    expect(res.status).toBe(201);
  });

  it('hides POST /dev/events outside development', async () => {
    const a = await createAccount();
    const res = await api('POST', '/dev/events', { body: { account_id: a.accountId, event: 'form.completed' } });
    expect(res.status).toBe(404);
    const { n } = (await (
      await shardOf(a.accountId)
    )
      .prepare('SELECT count(*) AS n FROM events WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});
