// Every tenant operation in the OpenAPI document, swept: no token → 401; a token whose scopes do not
// include any the operation accepts → 403 naming its first scope. Routes added later are covered too.
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/lib/scopes';
import { api, createAccount, createToken, type TestAccount } from '../helpers';

type Operation = { description?: string; security?: Record<string, unknown>[] };
let operations: { method: string; path: string; scopes: string[]; embedOnly: boolean }[] = [];
let owner: TestAccount;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  const doc = (await api('GET', '/api/openapi.json')).json as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.security?.length)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        // The description ends "Scopes: `a` or `b`." (src/routes/openapi-helpers.ts); the text before it
        // may name other scopes (bulk send: `submissions:send` as well to send).
        scopes: [...(op.description ?? '').slice((op.description ?? '').lastIndexOf('Scopes:')).matchAll(/`([a-z_]+:[a-z_]+)`/g)]
          .map((m) => m[1])
          .filter((s) => (SCOPES as readonly string[]).includes(s)),
        // Routes that take only an embed JWT hold no scope: test/embed covers their 401/403/404.
        embedOnly: (op.security ?? []).every((scheme) => 'EmbedToken' in scheme),
      })),
  );
});

const url = (path: string) => `/api${path.replace(/\{\w+\}/g, '1')}`;
const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

describe('every tenant operation', () => {
  it('is found in the OpenAPI document with its scopes', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.filter((op) => !op.embedOnly && op.scopes.length === 0).map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const res = await api(op.method, url(op.path), { body: bodyFor(op.method) });
      if (res.status !== 401) failures.push(`${op.method} ${op.path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  // One token and one request per operation: the sweep grows with every route, so it gets more than the default 5 s.
  it('answers 403 naming the first accepted scope to a token with none of them', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => !o.embedOnly)) {
      const other = SCOPES.find((s) => !op.scopes.includes(s))!;
      const token = await createToken(owner.accountId, owner.userId, [other]);
      const res = await api(op.method, url(op.path), { token, body: bodyFor(op.method) });
      if (res.status !== 403 || res.json?.error !== `Insufficient scope. Required: ${op.scopes[0]}`)
        failures.push(`${op.method} ${op.path} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 30_000);
});
