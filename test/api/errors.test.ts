import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/app-base';
import type { AppEnv } from '../../src/app-env';
import { requestId } from '../../src/middleware/request-id';
import { api, createAccount } from '../helpers';

describe('request ids and versions', () => {
  it('gives every response a unique X-Request-Id', async () => {
    const a = await createAccount();
    const responses = await Promise.all([
      api('GET', '/api/user', { token: a.token }),
      api('GET', '/api/user'),
      api('GET', '/nowhere'),
      api('GET', '/api/openapi.json'),
    ]);
    const ids = responses.map((r) => r.headers.get('X-Request-Id'));
    expect(ids.every((id) => /^req_[0-9A-Za-z]{20}$/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ignores a caller-supplied X-Request-Id', async () => {
    const res = await api('GET', '/nowhere', { headers: { 'X-Request-Id': 'mine' } });
    expect(res.headers.get('X-Request-Id')).not.toBe('mine');
  });

  it('serves /api/v1 exactly as /api, with X-API-Version v1', async () => {
    const a = await createAccount();
    const plain = await api('GET', '/api/user', { token: a.token });
    const pinned = await api('GET', '/api/v1/user', { token: a.token });
    expect(pinned.status).toBe(200);
    expect(pinned.json).toEqual(plain.json);
    expect(pinned.headers.get('X-API-Version')).toBe('v1');
  });

  it('answers /api/v2 with a JSON 404', async () => {
    const res = await api('GET', '/api/v2/user');
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(res.json.error).toMatch(/v2 does not exist/);
    expect(res.headers.get('X-API-Version')).toBe('v1');
  });

  it('answers an unknown route with a JSON 404 carrying the headers', async () => {
    const res = await api('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'No route for GET /nowhere.' });
    expect(res.headers.get('X-API-Version')).toBe('v1');
  });

  it('answers an unknown authenticated API route with a JSON 404', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/nothing-here', { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('No route for GET /api/nothing-here.');
  });
});

describe('500 responses', () => {
  function faultyApp(environment: string) {
    const app = new Hono<AppEnv>();
    app.use('*', requestId());
    app.onError(errorResponse);
    app.get('/boom', () => {
      throw new Error('SQLITE_ERROR: no such column: secret_sauce');
    });
    return (path: string) => app.request(path, {}, { ENVIRONMENT: environment } as AppEnv['Bindings']);
  }

  it('answers a real fault with a reference and no internals', async () => {
    const res = await faultyApp('production')('/boom');
    expect(res.status).toBe(500);
    const body = await res.json<Record<string, string>>();
    expect(body).toEqual({ error: 'Internal server error.', reference: res.headers.get('X-Request-Id') });
    expect(JSON.stringify(body)).not.toContain('SQLITE');
  });

  it('keeps the details out when ENVIRONMENT is missing or unknown, as in production', async () => {
    for (const environment of [undefined, '', 'Development', 'staging', 'dev']) {
      const body = await (await faultyApp(environment as string)('/boom')).json<Record<string, string>>();
      expect(body).not.toHaveProperty('detail');
    }
  });

  it('adds the exception message as detail only in development', async () => {
    const res = await faultyApp('development')('/boom');
    const body = await res.json<Record<string, string>>();
    expect(body.detail).toBe('SQLITE_ERROR: no such column: secret_sauce');
  });
});
