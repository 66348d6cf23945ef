import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';
import { createTemplate } from '../submission-fixtures';

describe('audit trail', () => {
  it('records a mutating request with actor, IP, user agent and resource', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/access_tokens', {
      token: a.token,
      body: { name: 'audited' },
      ip: '203.0.113.77',
      headers: { 'User-Agent': 'audit-test/1.0' },
    });
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      action: 'access_token.create',
      resource_type: 'access_token',
      resource_id: String(created.json.id),
      user_id: a.userId,
      method: 'POST',
      path: '/api/access_tokens',
      status: 201,
      ip: '203.0.113.77',
      user_agent: 'audit-test/1.0',
      request_id: created.headers.get('X-Request-Id'),
    });
  });

  it('records a submission create once, naming every submission it made', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const created = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.id,
        submissions: [{ submitters: [{ email: 'one@example.com' }] }, { submitters: [{ email: 'two@example.com' }] }],
      },
      headers: { 'User-Agent': 'bulk-audit/1.0' },
    });
    expect(created.status).toBe(201);
    const res = await api('GET', '/api/audit_events?action=submission.create', { token: a.token });
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({
      action: 'submission.create',
      resource_type: 'submission',
      resource_id: created.json.map((s: { id: number }) => s.id).join(','),
      status: 201,
      method: 'POST',
      path: '/api/submissions',
      user_agent: 'bulk-audit/1.0',
      request_id: created.headers.get('X-Request-Id'),
    });
  });

  it('records a refused submission create with its status', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const refused = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, submitters: [{ email: 'not an address' }] },
    });
    expect(refused.status).toBe(422);
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.json.data[0]).toMatchObject({ method: 'POST', path: '/api/submissions', status: 422, resource_id: null });
  });

  it('records refused attempts with their status', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    await api('PUT', '/api/settings/account', { token: editor.token, body: { name: 'nope' } });
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.json.data[0]).toMatchObject({ method: 'PUT', path: '/api/settings/account', status: 403, user_id: editor.userId });
  });

  it('does not record reads', async () => {
    const a = await createAccount();
    await api('GET', '/api/users', { token: a.token });
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.json.data).toEqual([]);
  });

  it('filters by action', async () => {
    const a = await createAccount();
    await api('PUT', '/api/settings/account', { token: a.token, body: { name: 'One' } });
    await api('POST', '/api/access_tokens', { token: a.token, body: { name: 'two' } });
    const res = await api('GET', '/api/audit_events?action=account.update', { token: a.token });
    expect(res.json.data.map((e: { action: string }) => e.action)).toEqual(['account.update']);
  });

  it('never shows another account’s events', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await api('PUT', '/api/settings/account', { token: b.token, body: { name: 'B' } });
    expect((await api('GET', '/api/audit_events', { token: a.token })).json.data).toEqual([]);
  });

  it('answers 403 with upgrade_url on the free plan', async () => {
    const a = await createAccount({ plan: 'free' });
    const res = await api('GET', '/api/audit_events', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      error: 'The audit trail API requires the Pro plan.',
      code: 'plan_limit_reached',
      upgrade_url: 'https://api.test/settings/billing',
    });
  });

  it('answers 403 without audit_events:read', async () => {
    const a = await createAccount({ scopes: ['users:read'] });
    expect((await api('GET', '/api/audit_events', { token: a.token })).status).toBe(403);
  });

  it('answers 422 for a created_after that is not a date-time', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/audit_events?created_after=yesterday', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^created_after must be an ISO 8601 date-time/);
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/audit_events')).status).toBe(401);
  });
});
