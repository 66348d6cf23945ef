// Embed JWT authentication (issue 15 › 2; spec › Embed JWT, Authentication): where a token works, and
// what a token that is altered, expired, foreign or rotated out gets.
import { env } from 'cloudflare:test';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { createTemplate } from '../submission-fixtures';
import { embedApi, mintToken, signToken, storedKey } from './embed-fixtures';

async function formToken() {
  const f = await signingFixture();
  const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
  return { f, jwt };
}

async function builderToken(permissions: string[] = ['edit', 'view']) {
  const owner = await createAccount();
  const template = await createTemplate(owner.token);
  const jwt = await mintToken(owner.token, { resource_type: 'template', resource_id: template.id, permissions });
  return { owner, template, jwt };
}

describe('embed token authentication', () => {
  it('accepts a form token on its submission’s embed route', async () => {
    const { f, jwt } = await formToken();
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt)).status).toBe(200);
  });

  it('accepts a form token on the pinned /api/v1 spelling too', async () => {
    const { f, jwt } = await formToken();
    expect((await embedApi('GET', `/api/v1/embed/submission/${f.submissionId}`, jwt)).status).toBe(200);
  });

  it('answers 401 to a token whose payload was altered', async () => {
    const { f, jwt } = await formToken();
    const [header, , signature] = jwt.split('.');
    const claims = { ...decodeJwt(jwt), scope: 'sign view edit' };
    const payload = btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, `${header}.${payload}.${signature}`);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The embed token is not valid.');
  });

  it('answers 401 to a token whose signature was altered', async () => {
    const { f, jwt } = await formToken();
    const flipped = jwt.slice(0, -2) + (jwt.at(-2) === 'A' ? 'B' : 'A') + jwt.at(-1);
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, flipped)).status).toBe(401);
  });

  it('answers 401 saying so to an expired token', async () => {
    const { f } = await formToken();
    const key = await storedKey(f.account.accountId);
    const iat = Math.floor(Date.now() / 1000) - 4 * 3600 - 60;
    const expired = await signToken(key, {
      aud: String(f.account.accountId),
      uid: f.account.userId,
      sub: `submission:${f.submissionId}`,
      iat,
    });
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, expired);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The embed token has expired; embed tokens last 4 hours and are not renewed: mint a new one.');
  });

  it('answers 401 to a token made to live longer than 4 hours, even signed with the right key', async () => {
    const { f } = await formToken();
    const key = await storedKey(f.account.accountId);
    const iat = Math.floor(Date.now() / 1000);
    const long = await signToken(key, {
      aud: String(f.account.accountId),
      uid: f.account.userId,
      sub: `submission:${f.submissionId}`,
      iat,
      exp: iat + 48 * 3600,
    });
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, long)).status).toBe(401);
  });

  it('answers 401 to a token another issuer signed with the account’s key', async () => {
    const { f } = await formToken();
    const key = await storedKey(f.account.accountId);
    const jwt = await signToken(key, {
      aud: String(f.account.accountId),
      uid: f.account.userId,
      sub: `submission:${f.submissionId}`,
      iss: 'someone-else',
    });
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt)).status).toBe(401);
  });

  it('answers 401 to a token signed with one account’s key but addressed to another', async () => {
    const { f } = await formToken();
    const other = await signingFixture();
    await mintToken(other.account.token, { resource_type: 'submission', resource_id: other.submissionId });
    const key = await storedKey(f.account.accountId);
    const jwt = await signToken(key, {
      aud: String(other.account.accountId),
      uid: other.account.userId,
      sub: `submission:${other.submissionId}`,
    });
    expect((await embedApi('GET', `/api/embed/submission/${other.submissionId}`, jwt)).status).toBe(401);
  });

  it('answers 401 to a token of an account that never minted one', async () => {
    const { f } = await formToken();
    const other = await createAccount();
    const key = await storedKey(f.account.accountId);
    const jwt = await signToken(key, { aud: String(other.accountId), uid: other.userId, sub: 'submission:1' });
    expect((await embedApi('GET', '/api/embed/submission/1', jwt)).status).toBe(401);
  });

  it('answers 401 once the user who minted the token is removed', async () => {
    const { f, jwt } = await formToken();
    await env.CONTROL_DB.prepare("UPDATE users SET archived_at = '2026-01-01T00:00:00Z' WHERE id = ?").bind(f.account.userId).run();
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt)).status).toBe(401);
  });

  it('answers 403 while the account is suspended', async () => {
    const { f, jwt } = await formToken();
    await env.CONTROL_DB.prepare("UPDATE accounts SET suspended_at = '2026-01-01T00:00:00Z' WHERE id = ?").bind(f.account.accountId).run();
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt);
    expect(res.status).toBe(403);
  });

  it('is accepted in X-Auth-Token as well, like every credential', async () => {
    const { f, jwt } = await formToken();
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, null, { headers: { 'X-Auth-Token': jwt } })).status).toBe(200);
  });

  it('answers 404 to a form token used for another submission of the same account', async () => {
    const { f, jwt } = await formToken();
    const second = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: { template_id: f.templateId, submitters: [{ role: 'First Party', email: 'second@example.com' }] },
    });
    const res = await embedApi('GET', `/api/embed/submission/${second.json.id}`, jwt);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Submission not found.');
  });

  it('answers 401 to a form token anywhere else under /api, its own submission included', async () => {
    const { f, jwt } = await formToken();
    for (const [method, path] of [
      ['GET', `/api/submissions/${f.submissionId}`],
      ['GET', '/api/submissions'],
      ['GET', `/api/templates/${f.templateId}`],
      ['GET', '/api/user'],
      ['GET', `/api/embed/template/${f.templateId}`],
      ['PUT', `/api/submitters/${f.submitters[0].id}`],
    ] as const) {
      const res = await embedApi(method, path, jwt, method === 'PUT' ? { body: { completed: true } } : {});
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it('answers 401 to a builder token on routes its builder does not need', async () => {
    const { template, jwt } = await builderToken();
    for (const [method, path] of [
      ['GET', '/api/templates'],
      ['DELETE', `/api/templates/${template.id}`],
      ['POST', `/api/templates/${template.id}/clone`],
      ['POST', '/api/templates/pdf'],
      ['GET', '/api/submissions'],
      ['POST', `/api/templates/${template.id}/submissions`],
    ] as const) {
      const res = await embedApi(method, path, jwt, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it('lets a builder token read and save its template through the templates API, keeping a version', async () => {
    const { owner, template, jwt } = await builderToken();
    const got = await embedApi('GET', `/api/templates/${template.id}`, jwt);
    expect(got.status).toBe(200);
    const put = await embedApi('PUT', `/api/templates/${template.id}`, jwt, { body: { name: 'Renamed in the builder' } });
    expect(put.status).toBe(200);
    expect(put.json.name).toBe('Renamed in the builder');
    const versions = await api('GET', `/api/templates/${template.id}/versions`, { token: owner.token });
    expect(versions.json.data[0]).toMatchObject({ author_id: owner.userId });
  });

  it('lets a builder token list and download its template’s documents', async () => {
    const { template, jwt } = await builderToken(['view']);
    const list = await embedApi('GET', `/api/templates/${template.id}/documents`, jwt);
    expect(list.status).toBe(200);
    const file = await embedApi('GET', `/api/templates/${template.id}/documents/${list.json.data[0].uuid}`, jwt);
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Type')).toBe('application/pdf');
  });

  it('answers 403 to a view-only builder token that saves', async () => {
    const { template, jwt } = await builderToken(['view']);
    const res = await embedApi('PUT', `/api/templates/${template.id}`, jwt, { body: { name: 'Nope' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('answers 404 to a builder token used on another template of the same account', async () => {
    const { owner, jwt } = await builderToken();
    const another = await createTemplate(owner.token);
    expect((await embedApi('GET', `/api/templates/${another.id}`, jwt)).status).toBe(404);
    expect((await embedApi('PUT', `/api/templates/${another.id}`, jwt, { body: { name: 'x' } })).status).toBe(404);
    expect((await embedApi('GET', `/api/embed/template/${another.id}`, jwt)).status).toBe(404);
  });

  it('answers 403 to a builder token minted by a user since demoted to viewer', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token);
    const editor = await addUser(owner.accountId, 'editor');
    const jwt = await mintToken(editor.token, { resource_type: 'template', resource_id: template.id });
    await env.CONTROL_DB.prepare("UPDATE users SET role = 'viewer' WHERE id = ?").bind(editor.userId).run();
    expect((await embedApi('PUT', `/api/templates/${template.id}`, jwt, { body: { name: 'x' } })).status).toBe(403);
  });

  it('answers 401 to an API token on the embed routes, which take only embed tokens', async () => {
    const f = await signingFixture();
    const res = await api('GET', `/api/embed/submission/${f.submissionId}`, { token: f.account.token });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('embed token');
  });

  it('names the token’s jti as the actor in the audit trail', async () => {
    const { owner, template, jwt } = await builderToken();
    await embedApi('PUT', `/api/templates/${template.id}`, jwt, { body: { name: 'Audited' } });
    const trail = await api('GET', '/api/audit_events', { token: owner.token });
    const update = trail.json.data.find((e: { action: string }) => e.action === 'template.update');
    expect(update.actor).toBe(`embed:${decodeJwt(jwt).jti}`);
  });
});

describe('CORS on the embed routes', () => {
  it('answers a preflight from any origin allowing Authorization, without cookies', async () => {
    const res = await api('OPTIONS', '/api/embed/submission/1', {
      token: null,
      headers: {
        Origin: 'https://host.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull();
  });

  it('lets another origin read an embed route’s answer', async () => {
    const { f, jwt } = await formToken();
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt, { headers: { Origin: 'https://host.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('gives minting no CORS headers: it is server-side only', async () => {
    const res = await api('OPTIONS', '/api/embed/token', {
      token: null,
      headers: { Origin: 'https://host.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});
