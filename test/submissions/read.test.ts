import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, createToken, type TestAccount } from '../helpers';
import { completeValues, createTemplate, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let template: TemplateFixture;
let other: TemplateFixture;
const ids: number[] = [];

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token);
  other = await createTemplate(owner.token);
  await api('PUT', `/api/templates/${other.id}`, { token: owner.token, body: { folder_name: 'Sales' } });
  for (let i = 0; i < 5; i++) {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: i < 3 ? template.id : other.id,
        send_email: false,
        submitters: [{ email: `reader${i}@example.com`, name: `Reader ${i}`, phone: `+1415555010${i}`, external_id: `ext-${i}` }],
      },
    });
    ids.push(res.json.id);
  }
});

describe('GET /api/submissions', () => {
  it('lists newest first with cursor pagination', async () => {
    const first = await api('GET', '/api/submissions?limit=2', { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.json.data.map((s: { id: number }) => s.id)).toEqual([ids[4], ids[3]]);
    expect(first.json.pagination).toEqual({ count: 2, next: ids[3], prev: null });
    const second = await api('GET', `/api/submissions?limit=2&after=${ids[3]}`, { token: owner.token });
    expect(second.json.data.map((s: { id: number }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(second.json.pagination.prev).toBe(ids[2]);
    const back = await api('GET', `/api/submissions?limit=2&before=${ids[2]}`, { token: owner.token });
    expect(back.json.data.map((s: { id: number }) => s.id)).toEqual([ids[4], ids[3]]);
  });

  it('filters by template, status, q, external_id, slug, folder and creation time', async () => {
    const get = async (query: string) =>
      (await api('GET', `/api/submissions?limit=100&${query}`, { token: owner.token })).json.data.map((s: { id: number }) => s.id);
    expect(await get(`template_id=${template.id}`)).toEqual([ids[2], ids[1], ids[0]]);
    expect(await get('status=pending')).toHaveLength(5);
    expect(await get('status=completed')).toEqual([]);
    expect(await get('q=reader3')).toEqual([ids[3]]);
    expect(await get('q=%2B14155550101')).toEqual([ids[1]]);
    expect(await get('external_id=ext-4')).toEqual([ids[4]]);
    const one = (await api('GET', `/api/submissions/${ids[0]}`, { token: owner.token })).json;
    expect(await get(`slug=${one.slug}`)).toEqual([ids[0]]);
    expect(await get('template_folder=sales')).toEqual([ids[4], ids[3]]);
    expect(await get('created_after=2099-01-01T00:00:00Z')).toEqual([]);
    expect(await get('created_before=2099-01-01T00:00:00Z')).toHaveLength(5);
    expect(await get('template_id=tpl_doesnotexist')).toEqual([]);
  });

  it('refuses bad query values with 400/422 sentences', async () => {
    const limit = await api('GET', '/api/submissions?limit=500', { token: owner.token });
    expect([400, 422]).toContain(limit.status);
    expect(JSON.stringify(limit.json.error)).toContain('between 1 and 100');
    expect([400, 422]).toContain((await api('GET', '/api/submissions?status=lost', { token: owner.token })).status);
    expect([400, 422]).toContain((await api('GET', '/api/submissions?created_after=yesterday', { token: owner.token })).status);
  });

  it('needs a token with submissions:read and shows nothing of other accounts', async () => {
    expect((await api('GET', '/api/submissions')).status).toBe(401);
    const noScope = await createToken(owner.accountId, owner.userId, ['templates:read']);
    const res = await api('GET', '/api/submissions', { token: noScope });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:read');
    const stranger = await createAccount({ plan: 'pro' });
    expect((await api('GET', '/api/submissions', { token: stranger.token })).json.data).toEqual([]);
  });
});

describe('GET /api/submissions/{id}', () => {
  it('shows the submission with template, submitters and their signing urls', async () => {
    const res = await api('GET', `/api/submissions/${ids[0]}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: ids[0], status: 'pending', template: { id: template.id, name: 'Agreement' }, archived_at: null });
    expect(res.json.submitters[0]).toMatchObject({
      email: 'reader0@example.com',
      signing_url: expect.stringMatching(/\/s\/[0-9A-Za-z]{14,}$/),
    });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await api('GET', '/api/submissions/999999', { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/api/submissions/abc', { token: owner.token })).status).toBe(400);
  });
});

describe('GET /api/submitters', () => {
  it('lists submitters newest first with filters', async () => {
    const all = await api('GET', '/api/submitters?limit=100', { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.json.data).toHaveLength(5);
    expect(all.json.data[0].email).toBe('reader4@example.com');
    const byExternal = await api('GET', '/api/submitters?external_id=ext-2', { token: owner.token });
    expect(byExternal.json.data.map((s: { email: string }) => s.email)).toEqual(['reader2@example.com']);
    const bySubmission = await api('GET', `/api/submitters?submission_id=${ids[1]}`, { token: owner.token });
    expect(bySubmission.json.data.map((s: { submission_id: number }) => s.submission_id)).toEqual([ids[1]]);
    const byQ = await api('GET', '/api/submitters?q=Reader%203', { token: owner.token });
    expect(byQ.json.data.map((s: { email: string }) => s.email)).toEqual(['reader3@example.com']);
  });

  it('filters by completion time', async () => {
    const sub = (await api('GET', `/api/submissions/${ids[0]}`, { token: owner.token })).json.submitters[0];
    await api('PUT', `/api/submitters/${sub.id}`, { token: owner.token, body: { values: completeValues('First Party'), completed: true } });
    const done = await api('GET', '/api/submitters?completed_after=2000-01-01T00:00:00Z', { token: owner.token });
    expect(done.json.data.map((s: { id: number }) => s.id)).toEqual([sub.id]);
    const none = await api('GET', '/api/submitters?completed_before=2000-01-01T00:00:00Z', { token: owner.token });
    expect(none.json.data).toEqual([]);
  });

  it('shows one submitter with values by field name', async () => {
    const sub = (await api('GET', `/api/submissions/${ids[0]}`, { token: owner.token })).json.submitters[0];
    const res = await api('GET', `/api/submitters/${sub.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: sub.id, status: 'completed', values: completeValues('First Party') });
    expect((await api('GET', `/api/submitters/${sub.id}`)).status).toBe(401);
  });
});
