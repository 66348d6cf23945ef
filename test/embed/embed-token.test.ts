// POST /api/embed/token and POST /api/settings/embed_key/rotate (issue 15 › 1; spec › Embed token, Embed JWT).
import { env } from 'cloudflare:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { createTemplate } from '../submission-fixtures';
import { sessionFor } from '../session-fixtures';
import { embedApi, mintToken } from './embed-fixtures';

describe('POST /api/embed/token', () => {
  it('mints a form token whose claims name the account, the submission and the permissions, expiring after 4 hours', async () => {
    const f = await signingFixture();
    const before = Math.floor(Date.now() / 1000);
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submissionId, permissions: ['sign', 'view'] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(['expires_at', 'token']);
    expect(decodeProtectedHeader(res.json.token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(res.json.token);
    expect(claims).toMatchObject({
      iss: 'signing-service',
      aud: String(f.account.accountId),
      sub: `submission:${f.submissionId}`,
      scope: 'sign view',
      uid: f.account.userId,
    });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp! - claims.iat!).toBe(4 * 3600);
    expect(res.json.expires_at).toBe(new Date(claims.exp! * 1000).toISOString());
  });

  it('mints a builder token for a template named by its integer id, bound to its public id', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token);
    const row = await (await import('../helpers'))
      .shardOf(owner.accountId)
      .then((db) => db.prepare('SELECT id FROM templates WHERE public_id = ?').bind(template.id).first<{ id: number }>());
    const jwt = await mintToken(owner.token, { resource_type: 'template', resource_id: row!.id, permissions: ['edit'] });
    expect(decodeJwt(jwt)).toMatchObject({ sub: `template:${template.id}`, scope: 'edit' });
  });

  it('grants every permission of the kind when permissions are left out', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token);
    const jwt = await mintToken(owner.token, { resource_type: 'template', resource_id: template.id });
    expect(decodeJwt(jwt).scope).toBe('edit view');
  });

  it('stores the signing key encrypted on the account row, never in clear', async () => {
    const f = await signingFixture();
    await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    const row = await env.CONTROL_DB.prepare('SELECT embed_key FROM accounts WHERE id = ?')
      .bind(f.account.accountId)
      .first<{ embed_key: string }>();
    expect(row!.embed_key).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
  });

  it('keeps one key when two first mints race', async () => {
    const f = await signingFixture();
    const body = { resource_type: 'submission', resource_id: f.submissionId };
    const [a, b] = await Promise.all([mintToken(f.account.token, body), mintToken(f.account.token, body)]);
    for (const jwt of [a, b]) expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt)).status).toBe(200);
  });

  it('mints from a console session, whose user the token then acts as', async () => {
    const f = await signingFixture();
    const session = await sessionFor(f.account);
    const res = await api('POST', '/api/embed/token', {
      token: null,
      headers: session.console,
      body: { resource_type: 'submission', resource_id: f.submissionId },
    });
    expect(res.status).toBe(201);
    expect(decodeJwt(res.json.token).uid).toBe(f.account.userId);
  });

  it('answers 401 without credentials', async () => {
    const res = await api('POST', '/api/embed/token', { token: null, body: { resource_type: 'submission', resource_id: 1 } });
    expect(res.status).toBe(401);
  });

  it('answers 403 naming submissions:write to a token that holds only templates:write for a form token', async () => {
    const f = await signingFixture();
    const scoped = await addUser(f.account.accountId, 'admin', ['templates:write']);
    const res = await api('POST', '/api/embed/token', {
      token: scoped.token,
      body: { resource_type: 'submission', resource_id: f.submissionId },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:write');
  });

  it('answers 403 naming templates:write to a token that holds only submissions:write for a builder token', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token);
    const scoped = await addUser(owner.accountId, 'admin', ['submissions:write']);
    const res = await api('POST', '/api/embed/token', {
      token: scoped.token,
      body: { resource_type: 'template', resource_id: template.id },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('answers 403 to a token with neither write scope', async () => {
    const owner = await createAccount();
    const reader = await addUser(owner.accountId, 'admin', ['templates:read', 'submissions:read']);
    const res = await api('POST', '/api/embed/token', { token: reader.token, body: { resource_type: 'submission', resource_id: 1 } });
    expect(res.status).toBe(403);
  });

  it('answers 404 for another account’s submission and template', async () => {
    const f = await signingFixture();
    const other = await createAccount();
    const sub = await api('POST', '/api/embed/token', {
      token: other.token,
      body: { resource_type: 'submission', resource_id: f.submissionId },
    });
    expect(sub.status).toBe(404);
    expect(sub.json.error).toBe('Submission not found.');
    const tpl = await api('POST', '/api/embed/token', {
      token: other.token,
      body: { resource_type: 'template', resource_id: f.templateId },
    });
    expect(tpl.status).toBe(404);
    expect(tpl.json.error).toBe('Template not found.');
  });

  it('answers 422 with a sentence for a permission of the other kind', async () => {
    const f = await signingFixture();
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submissionId, permissions: ['edit'] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('permissions: "edit" is not a permission of a submission token; use sign or view.');
  });

  it('answers 422 for an empty permission list', async () => {
    const f = await signingFixture();
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submissionId, permissions: [] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('permissions must name at least one of sign, view.');
  });

  it('answers 422 for a submission named by anything but its integer id', async () => {
    const f = await signingFixture();
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submitters[0].slug },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('resource_id must be the submission’s integer id.');
  });

  it('answers 422 naming the resource types for an unknown one', async () => {
    const owner = await createAccount();
    const res = await api('POST', '/api/embed/token', { token: owner.token, body: { resource_type: 'brand', resource_id: 1 } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toContain('must be submission (a signing form) or template (a builder)');
  });

  it('cannot be called with an embed token, so a token never mints another', async () => {
    const f = await signingFixture();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    const res = await embedApi('POST', '/api/embed/token', jwt, { body: { resource_type: 'submission', resource_id: f.submissionId } });
    expect(res.status).toBe(401);
  });

  it('records the mint in the audit trail with the token’s jti and its signer', async () => {
    const f = await signingFixture();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    const trail = await api('GET', '/api/audit_events', { token: f.account.token });
    const minted = trail.json.data.find((e: { action: string }) => e.action === 'embed_token.create');
    expect(minted.resource_id).toBe(`${f.submissionId} jti=${decodeJwt(jwt).jti} submitter=${f.submitters[0].id}`);
  });
});

describe('POST /api/settings/embed_key/rotate', () => {
  it('signs new tokens with a new key while tokens of the previous key still verify', async () => {
    const f = await signingFixture();
    const body = { resource_type: 'submission', resource_id: f.submissionId };
    const old = await mintToken(f.account.token, body);
    const rotated = await api('POST', '/api/settings/embed_key/rotate', { token: f.account.token });
    expect(rotated.status).toBe(200);
    const until = Date.parse(rotated.json.embed_key.previous_valid_until) - Date.parse(rotated.json.embed_key.rotated_at);
    expect(Math.abs(until - 4 * 3600 * 1000)).toBeLessThan(5000);
    const fresh = await mintToken(f.account.token, body);
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, old)).status).toBe(200);
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, fresh)).status).toBe(200);
  });

  it('stops tokens of a key two rotations old', async () => {
    const f = await signingFixture();
    const old = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    await api('POST', '/api/settings/embed_key/rotate', { token: f.account.token });
    await api('POST', '/api/settings/embed_key/rotate', { token: f.account.token });
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, old);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('The embed token is not valid.');
  });

  it('stops tokens of the previous key once its 4 hours have passed', async () => {
    const f = await signingFixture();
    const old = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    await api('POST', '/api/settings/embed_key/rotate', { token: f.account.token });
    await env.CONTROL_DB.prepare('UPDATE accounts SET embed_key_previous_until = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), f.account.accountId)
      .run();
    expect((await embedApi('GET', `/api/embed/submission/${f.submissionId}`, old)).status).toBe(401);
  });

  it('answers 401 without credentials', async () => {
    expect((await api('POST', '/api/settings/embed_key/rotate', { token: null })).status).toBe(401);
  });

  it('answers 403 to an editor', async () => {
    const owner = await createAccount();
    const editor = await addUser(owner.accountId, 'editor');
    const res = await api('POST', '/api/settings/embed_key/rotate', { token: editor.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Only account admins can perform this operation.');
  });

  it('answers 403 naming account:write to a token without it', async () => {
    const owner = await createAccount();
    const scoped = await addUser(owner.accountId, 'admin', ['account:read']);
    const res = await api('POST', '/api/settings/embed_key/rotate', { token: scoped.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });
});
