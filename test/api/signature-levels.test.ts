import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount, shardOf } from '../helpers';
import { completeValues, createTemplate } from '../submission-fixtures';
import { providerUrlProblems } from '../../src/services/signature-levels/account-signature-level';
import { CSC_CLIENT_ID, CSC_CLIENT_SECRET, imitationRequests, imitationSwitch } from '../csc-fixtures';

/** A provider URL of the CSC imitation under a prefix of its own, so its failure switches touch only this test. */
function providerUrl(): { url: string; prefix: string } {
  const prefix = `${env.TEST_CSC_URL}/t/levels-${crypto.randomUUID()}`;
  return { url: `${prefix}/csc/v2`, prefix };
}

const KEY = `${CSC_CLIENT_ID}:${CSC_CLIENT_SECRET}`;
const qesBody = (url = providerUrl().url) => ({
  level: 'qes',
  provider: 'Example Trust',
  qes_provider_api_url: url,
  qes_provider_api_key: KEY,
  qes_certificate_id: 'cred-rsa',
});
const qes = qesBody();

async function setLevel(token: string, body: Record<string, unknown>) {
  return api('PUT', '/api/settings/signature_level', { token, body });
}

describe('GET /api/settings/signature_level', () => {
  it('returns ses on the platform with the three levels and their prices for a new account', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/settings/signature_level', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ level: 'ses', provider: 'platform', configured: false });
    expect(res.json.available_levels.map((l: { key: string; cost_per_signature: number }) => [l.key, l.cost_per_signature])).toEqual([
      ['ses', 0],
      ['aes', 0.2],
      ['qes', 2],
    ]);
    expect(res.json.available_levels[1]).toMatchObject({ name: 'Advanced', description: expect.stringContaining('certificate') });
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/settings/signature_level', { token: null })).status).toBe(401);
  });

  it('answers 403 without account:read', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/settings/signature_level', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
  });
});

describe('PUT /api/settings/signature_level', () => {
  it('sets aes and answers with the level and the platform as provider', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { level: 'aes' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, level: 'aes', provider: 'platform' });
    expect((await api('GET', '/api/settings/signature_level', { token: a.token })).json.level).toBe('aes');
  });

  it('sets qes with provider credentials, which count as configured and are never returned', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, qes);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, level: 'qes', provider: 'Example Trust' });
    const got = await api('GET', '/api/settings/signature_level', { token: a.token });
    expect(got.json).toMatchObject({ level: 'qes', provider: 'Example Trust', configured: true });
    expect(got.text).not.toContain(CSC_CLIENT_SECRET);
    expect(got.text).not.toContain('127.0.0.1');
    expect(got.text).not.toContain('cred-rsa');
  });

  it('stores the provider credentials encrypted', async () => {
    const a = await createAccount();
    await setLevel(a.token, qes);
    const row = await env.CONTROL_DB.prepare('SELECT qes_provider_credentials AS c FROM accounts WHERE id = ?')
      .bind(a.accountId)
      .first<{ c: string }>();
    expect(row!.c).toMatch(/^v1\./);
    expect(row!.c).not.toContain(CSC_CLIENT_SECRET);
    expect(row!.c).not.toContain('cred-rsa');
  });

  it('keeps stored credentials when qes is chosen again without them', async () => {
    const a = await createAccount();
    await setLevel(a.token, qes);
    await setLevel(a.token, { level: 'ses' });
    const res = await setLevel(a.token, { level: 'qes' });
    expect(res.status).toBe(200);
    expect(res.json.provider).toBe('Example Trust');
  });

  it('refuses an unknown level with a 422 naming ses, aes, qes', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { level: 'gold' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toContain('ses, aes, qes');
  });

  it('refuses qes without provider credentials with a sentence naming them', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { level: 'qes' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'Level qes needs a CSC v2 provider: send qes_provider_api_url, qes_provider_api_key and qes_certificate_id.',
    );
  });

  it('refuses part of the provider credentials with a sentence naming the missing ones', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { level: 'qes', qes_provider_api_url: providerUrl().url });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'QES provider credentials are replaced together: send qes_provider_api_key and qes_certificate_id with qes_provider_api_url.',
    );
  });

  it('refuses a provider URL that is not a URL', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_provider_api_url: 'not a url' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('qes_provider_api_url must be an absolute URL such as https://csc.example.com/csc/v2.');
  });

  it('requires an https provider URL in production', () => {
    expect(providerUrlProblems('http://csc.example.com/csc/v2', { ENVIRONMENT: 'production' })).toEqual([
      'qes_provider_api_url must be an https URL: the provider key is sent to it.',
    ]);
    expect(providerUrlProblems('http://127.0.0.1:9000/csc/v2', { ENVIRONMENT: 'development' })).toEqual([]);
  });

  it('asks the provider for the credential before saving', async () => {
    const a = await createAccount();
    const { url, prefix } = providerUrl();
    expect((await setLevel(a.token, qesBody(url))).status).toBe(200);
    expect((await imitationRequests(prefix)).map((r) => r.path)).toEqual(['info', 'oauth2/token', 'credentials/info']);
  });

  it('refuses credentials the provider rejects with a sentence, and saves nothing', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_provider_api_key: `${CSC_CLIENT_ID}:wrong-secret` });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'The QES provider did not confirm credential cred-rsa: The QES provider refused the service token request (HTTP 401, invalid_client). Nothing was saved.',
    );
    const got = await api('GET', '/api/settings/signature_level', { token: a.token });
    expect(got.json).toMatchObject({ level: 'ses', configured: false });
  });

  it('refuses a credential the provider does not know', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_certificate_id: 'cred-nobody' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'The QES provider did not confirm credential cred-nobody: The QES provider refused credentials/info (HTTP 400, invalid_request). Nothing was saved.',
    );
  });

  it('refuses a credential whose key is disabled', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_certificate_id: 'cred-disabled' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'The QES provider did not confirm credential cred-disabled: The QES provider reports the key of credential cred-disabled as disabled. Nothing was saved.',
    );
  });

  it('refuses a credential whose certificate has expired', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_certificate_id: 'cred-expired' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'The QES provider did not confirm credential cred-expired: The QES provider reports the certificate of credential cred-expired as expired. Nothing was saved.',
    );
  });

  it('refuses while the provider is down, saying to try again later', async () => {
    const a = await createAccount();
    const { url, prefix } = providerUrl();
    await imitationSwitch(prefix, 'outage', { count: 1 });
    const res = await setLevel(a.token, qesBody(url));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `The QES provider did not confirm credential cred-rsa: The QES provider refused info (HTTP 503, temporarily_unavailable). Nothing was saved; try again later.`,
    );
  });

  it('never repeats what the provider wrote', async () => {
    const a = await createAccount();
    const { url, prefix } = providerUrl();
    await imitationSwitch(prefix, 'fail-next', {
      method: 'credentials/info',
      status: 400,
      error: 'invalid_request',
      error_description: '<script>provider text</script>',
    });
    const res = await setLevel(a.token, qesBody(url));
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('provider text');
  });

  it('checks stored credentials again when qes is chosen with them', async () => {
    const a = await createAccount();
    const { url, prefix } = providerUrl();
    await setLevel(a.token, qesBody(url));
    await setLevel(a.token, { level: 'ses' });
    await imitationSwitch(prefix, 'outage', { count: 1 });
    const res = await setLevel(a.token, { level: 'qes' });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('try again later');
  });

  it('refuses a provider URL on a private network', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_provider_api_url: 'http://10.1.2.3/csc/v2' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'The QES provider did not confirm credential cred-rsa: qes_provider_api_url points to 10.1.2.3, a private network (10.0.0.0/8), which the signing service may not call. Nothing was saved.',
    );
  });

  it('refuses an API key that is not client_id:client_secret', async () => {
    const a = await createAccount();
    const res = await setLevel(a.token, { ...qes, qes_provider_api_key: 'just-a-key' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'qes_provider_api_key must be the OAuth client the provider registered for the account, written client_id:client_secret.',
    );
  });

  it('refuses editors with 403', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    expect((await setLevel(editor.token, { level: 'aes' })).status).toBe(403);
  });

  it('answers 403 without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    const res = await setLevel(a.token, { level: 'aes' });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 401 without a token', async () => {
    expect((await api('PUT', '/api/settings/signature_level', { token: null, body: { level: 'aes' } })).status).toBe(401);
  });
});

describe('preferences.signature_level', () => {
  it('lets a template ask for a level up to the account’s', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    const res = await api('PUT', `/api/templates/${t.id}`, { token: a.token, body: { preferences: { signature_level: 'aes' } } });
    expect(res.status).toBe(200);
    expect(res.json.preferences.signature_level).toBe('aes');
  });

  it('refuses a template level above the account’s with a sentence naming both', async () => {
    const a = await createAccount();
    const t = await createTemplate(a.token);
    const res = await api('PUT', `/api/templates/${t.id}`, { token: a.token, body: { preferences: { signature_level: 'qes' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      "preferences.signature_level qes is above the account's signature level ses; raise it with PUT /api/settings/signature_level or ask for ses or lower.",
    );
  });

  it('refuses a submission level above the account’s with a sentence naming both', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }], preferences: { signature_level: 'qes' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      "preferences.signature_level qes is above the account's signature level aes; raise it with PUT /api/settings/signature_level or ask for aes or lower.",
    );
  });

  it('gives a submission the account’s level when neither it nor the template asks for one', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }] },
    });
    expect(res.status).toBe(201);
    const got = await api('GET', `/api/submissions/${res.json.id}`, { token: a.token });
    expect(got.json.signature_level).toBe('aes');
  });

  it('prefers the submission’s level over the template’s', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    await api('PUT', `/api/templates/${t.id}`, { token: a.token, body: { preferences: { signature_level: 'aes' } } });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }], preferences: { signature_level: 'ses' } },
    });
    const got = await api('GET', `/api/submissions/${res.json.id}`, { token: a.token });
    expect(got.json.signature_level).toBe('ses');
  });

  it('keeps a submission’s level when the account’s level changes afterwards', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    await api('PUT', `/api/templates/${t.id}`, { token: a.token, body: { preferences: { signature_level: 'aes' } } });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }] },
    });
    await setLevel(a.token, { level: 'ses' });
    const got = await api('GET', `/api/submissions/${res.json.id}`, { token: a.token });
    expect(got.json.signature_level).toBe('aes');
  });

  it('refuses to send a template whose level is above the account’s lowered level', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    await api('PUT', `/api/templates/${t.id}`, { token: a.token, body: { preferences: { signature_level: 'aes' } } });
    await setLevel(a.token, { level: 'ses' });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `Template ${t.id} preferences.signature_level aes is above the account's signature level ses; raise it with PUT /api/settings/signature_level or ask for ses or lower.`,
    );
  });

  it('moves a draft’s level with its edited preferences', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const t = await createTemplate(a.token);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: t.id, draft: true, submitters: [{ email: 'x@example.com' }] },
    });
    const id = res.json.id;
    const edited = await api('PUT', `/api/submissions/${id}`, { token: a.token, body: { preferences: { signature_level: 'ses' } } });
    expect(edited.status).toBe(200);
    expect(edited.json.signature_level).toBe('ses');
  });
});

async function completedSubmission(token: string, level?: string) {
  const t = await createTemplate(token);
  const res = await api('POST', '/api/submissions', {
    token,
    body: {
      template_id: t.id,
      submitters: [{ email: 'signer@example.com' }],
      ...(level ? { preferences: { signature_level: level } } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  const submitterId = res.json.submitters[0].id;
  const done = await api('PUT', `/api/submitters/${submitterId}`, {
    token,
    body: { completed: true, values: completeValues('First Party') },
  });
  if (done.status !== 200) throw new Error(`${done.status} ${done.text}`);
  return { submissionId: res.json.id as number, submitterId: submitterId as number };
}

describe('GET /api/signature_usage', () => {
  it('lists each completed signature with its level and cost, newest first, with totals', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const first = await completedSubmission(a.token, 'ses');
    const second = await completedSubmission(a.token, 'aes');
    const res = await api('GET', '/api/signature_usage', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      expect.objectContaining({
        submission_id: second.submissionId,
        submitter_id: second.submitterId,
        level: 'aes',
        cost: 0.2,
        currency: 'USD',
      }),
      expect.objectContaining({
        submission_id: first.submissionId,
        submitter_id: first.submitterId,
        level: 'ses',
        cost: 0,
        currency: 'USD',
      }),
    ]);
    expect(res.json.totals).toEqual({
      count: 2,
      cost: 0.2,
      currency: 'USD',
      by_level: { ses: { count: 1, cost: 0 }, aes: { count: 1, cost: 0.2 }, qes: { count: 0, cost: 0 } },
    });
  });

  it('keeps a signature billed after its submission is deleted permanently, detached from the deleted rows', async () => {
    const a = await createAccount();
    await setLevel(a.token, { level: 'aes' });
    const { submissionId } = await completedSubmission(a.token, 'aes');
    expect((await api('DELETE', `/api/submissions/${submissionId}?permanently=true`, { token: a.token })).status).toBe(204);
    const res = await api('GET', '/api/signature_usage', { token: a.token });
    expect(res.json.data).toEqual([expect.objectContaining({ submission_id: null, submitter_id: null, level: 'aes', cost: 0.2 })]);
    expect(res.json.totals.count).toBe(1);
  });

  it('pages with limit and after, keeping the totals of the whole filter', async () => {
    const a = await createAccount();
    await completedSubmission(a.token);
    await completedSubmission(a.token);
    const page = await api('GET', '/api/signature_usage?limit=1', { token: a.token });
    expect(page.json.data).toHaveLength(1);
    expect(page.json.totals.count).toBe(2);
    const next = await api('GET', `/api/signature_usage?limit=1&after=${page.json.pagination.next}`, { token: a.token });
    expect(next.json.data).toHaveLength(1);
    expect(next.json.data[0].id).toBeLessThan(page.json.data[0].id);
    expect(next.json.pagination.next).toBeNull();
  });

  it('filters by the month the signature was completed in', async () => {
    const a = await createAccount();
    const { submitterId } = await completedSubmission(a.token);
    await completedSubmission(a.token);
    const shard = await shardOf(a.accountId);
    await shard
      .prepare("UPDATE signature_usage SET month = '2026-01', signed_at = '2026-01-15T10:00:00.000Z' WHERE submitter_id = ?")
      .bind(submitterId)
      .run();
    const res = await api('GET', '/api/signature_usage?month=2026-01', { token: a.token });
    expect(res.json.data.map((u: { submitter_id: number }) => u.submitter_id)).toEqual([submitterId]);
    expect(res.json.totals.count).toBe(1);
  });

  it('never shows another account’s signatures', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await completedSubmission(a.token);
    const res = await api('GET', '/api/signature_usage', { token: b.token });
    expect(res.json.data).toEqual([]);
    expect(res.json.totals.count).toBe(0);
  });

  it('records a submitter’s signature once, at completion only', async () => {
    const a = await createAccount();
    const { submitterId } = await completedSubmission(a.token);
    const again = await api('PUT', `/api/submitters/${submitterId}`, { token: a.token, body: { completed: true } });
    expect(again.status).toBe(422);
    const shard = await shardOf(a.accountId);
    const rows = await shard
      .prepare('SELECT count(*) AS n FROM signature_usage WHERE submitter_id = ?')
      .bind(submitterId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it('refuses a month that is not YYYY-MM with a sentence', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/signature_usage?month=November', { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('month must be a month such as 2026-11.');
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/signature_usage', { token: null })).status).toBe(401);
  });

  it('answers 403 without account:read', async () => {
    const a = await createAccount({ scopes: ['submissions:read'] });
    const res = await api('GET', '/api/signature_usage', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
  });
});
