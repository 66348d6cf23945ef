// /settings/webhooks and /settings/webhooks/{id}: endpoints, their settings, the delivery log with
// redelivery and test sends, all through the webhook API; viewers read.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, shardOf } from '../helpers';
import { deliverPending, drainFor, insertEvent, receiverHook } from '../webhook-fixtures';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;
let hook: { id: number; url: string; secret: string };

beforeAll(async () => {
  roles = await accountWithRoles({ plan: 'pro' });
  ({ hook } = await receiverHook(roles.admin.token, { events: ['form.completed'] }));
  await insertEvent(roles.admin.accountId, 'form.completed');
  await drainFor(roles.admin.accountId);
  await deliverPending(hook.id);
});

/** An endpoint whose stored URL holds markup (written as a row, since the API would not accept it). */
async function hookWithHostileUrl(accountId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare("INSERT INTO webhooks (account_id, url, events, secret) VALUES (?, ?, '[]', 'whsec_0123456789abcdef0123') RETURNING id")
    .bind(accountId, 'https://example.com/<script>alert(3)</script>')
    .first<{ id: number }>();
  return row!.id;
}

describe('/settings/webhooks', () => {
  it('lists the endpoints with a link to each one’s page', async () => {
    const res = await page('/settings/webhooks', roles.viewer.session.cookie);
    expect(res.html).toContain(`href="/settings/webhooks/${hook.id}"`);
    expect(res.html).toContain('<td>form.completed</td><td>Enabled</td>');
  });

  it('gives an editor the form that creates an endpoint', async () => {
    const res = await page('/settings/webhooks', roles.editor.session.cookie);
    expect(apiForms(res.html)).toEqual(['POST /api/webhooks']);
    expect(res.html).toContain('name="events" value="form.declined" data-type="list"');
  });

  it('gives a viewer no form', async () => {
    const res = await page('/settings/webhooks', roles.viewer.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
  });

  it('lists an endpoint the create form added through the API', async () => {
    const body = { url: hook.url.replace('/hook', '/second'), events: ['form.declined'], enabled: false };
    const created = await api('POST', '/api/webhooks', { token: null, headers: roles.editor.session.console, body });
    expect(created.status).toBe(201);
    const res = await page('/settings/webhooks', roles.viewer.session.cookie);
    expect(res.html).toContain(`href="/settings/webhooks/${created.json.id}"`);
    expect(res.html).toContain('<td>form.declined</td><td>Disabled</td>');
  });

  it('tells a free account that webhooks need the Pro plan and offers no form', async () => {
    const free = await accountWithRoles({ plan: 'free' });
    const res = await page('/settings/webhooks', free.admin.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain('Webhooks require the Pro plan');
    expect(apiForms(res.html)).toEqual([]);
  });

  it('escapes an endpoint URL holding a script tag', async () => {
    await hookWithHostileUrl(roles.admin.accountId);
    const res = await page('/settings/webhooks', roles.viewer.session.cookie);
    expect(res.html).not.toContain('<script>alert(3)');
    expect(res.html).toContain('https://example.com/&lt;script&gt;alert(3)&lt;/script&gt;');
  });
});

describe('/settings/webhooks pages', () => {
  it('shows 50 endpoints and links the older ones by the API’s cursor', async () => {
    const many = await accountWithRoles({ plan: 'pro' });
    const shard = await shardOf(many.admin.accountId);
    await shard.batch(
      Array.from({ length: 51 }, (_, n) =>
        shard
          .prepare("INSERT INTO webhooks (account_id, url, events, secret) VALUES (?, ?, '[]', 'whsec_0123456789abcdef0123')")
          .bind(many.admin.accountId, `https://example.com/hook-${n}`),
      ),
    );
    const first = await page('/settings/webhooks', many.viewer.session.cookie);
    expect(first.html).toContain('https://example.com/hook-50');
    expect(first.html).not.toContain('https://example.com/hook-0<');
    const older = first.html.match(/href="(\/settings\/webhooks\?after=\d+)">Older</)?.[1];
    expect(older).toBeDefined();
    const second = await page(older!, many.viewer.session.cookie);
    expect(second.html).toContain('https://example.com/hook-0<');
    expect(second.html).not.toContain('https://example.com/hook-50');
    expect(second.html).toMatch(/href="\/settings\/webhooks\?before=\d+">Newer</);
  });

  it('starts at the newest for a cursor that is not an id', async () => {
    const res = await page('/settings/webhooks?after=abc', roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain(`href="/settings/webhooks/${hook.id}"`);
  });
});

describe('/settings/webhooks/{id}', () => {
  it('shows the delivery log with status, attempt, response code and time', async () => {
    const res = await page(`/settings/webhooks/${hook.id}`, roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain(`<title>Webhook ${hook.id}</title>`);
    expect(res.html).toMatch(
      /<th scope="row"><time datetime="[^"]+">[^<]+ UTC<\/time><\/th><td>form\.completed<\/td><td>success<\/td><td>1 of 6<\/td><td>200<\/td>/,
    );
  });

  it('gives an editor the edit, delete, test and redeliver forms', async () => {
    const res = await page(`/settings/webhooks/${hook.id}`, roles.editor.session.cookie);
    const forms = apiForms(res.html);
    expect(forms).toContain(`PUT /api/webhooks/${hook.id}`);
    expect(forms).toContain(`DELETE /api/webhooks/${hook.id}`);
    expect(forms).toContain(`POST /api/webhooks/${hook.id}/test`);
    expect(forms.some((form) => new RegExp(`^POST /api/webhooks/${hook.id}/deliveries/\\d+/redeliver$`).test(form))).toBe(true);
  });

  it('gives a viewer the settings and log without any form', async () => {
    const res = await page(`/settings/webhooks/${hook.id}`, roles.viewer.session.cookie);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<dt>Events</dt><dd>form.completed</dd>');
  });

  it('shows a test send in the log without a redeliver button', async () => {
    const sent = await api('POST', `/api/webhooks/${hook.id}/test`, { token: null, headers: roles.editor.session.console, body: {} });
    expect(sent.status).toBe(200);
    const res = await page(`/settings/webhooks/${hook.id}`, roles.editor.session.cookie);
    expect(res.html).toContain('<td>form.completed (test)</td><td>success</td>');
    expect(apiForms(res.html)).not.toContain(`POST /api/webhooks/${hook.id}/deliveries/${sent.json.delivery_id}/redeliver`);
  });

  it('lists a redelivery the redeliver button asked for', async () => {
    const log = await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: roles.admin.token });
    const original = log.json.data.find((d: { test: boolean }) => !d.test);
    const again = await api('POST', `/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, {
      token: null,
      headers: roles.editor.session.console,
      body: {},
    });
    expect(again.status).toBe(201);
    const res = await page(`/settings/webhooks/${hook.id}`, roles.viewer.session.cookie);
    expect(res.html).toContain('<td>form.completed</td><td>pending</td>');
  });

  it('answers another account’s webhook id with a 404 page', async () => {
    const other = await accountWithRoles({ plan: 'pro' });
    const res = await page(`/settings/webhooks/${hook.id}`, other.admin.session.cookie);
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.html).toContain('<title>Webhook not found</title>');
    expect(res.html).not.toContain(hook.url);
  });

  it('answers an id that is not a number with a 404 page', async () => {
    const res = await page('/settings/webhooks/abc', roles.admin.session.cookie);
    expect(res.status).toBe(404);
    expect(res.html).toContain('<title>Webhook not found</title>');
  });

  it('escapes its endpoint URL holding a script tag', async () => {
    const id = await hookWithHostileUrl(roles.admin.accountId);
    const res = await page(`/settings/webhooks/${id}`, roles.editor.session.cookie);
    expect(res.html).not.toContain('<script>alert(3)');
    expect(res.html).toContain('value="https://example.com/&lt;script&gt;alert(3)&lt;/script&gt;"');
  });
});
