// The request context (issue 14 › 2 and 7): authentication resolves token, user and account with one
// control lookup, then points the request at the account's shard; nothing else is asked where it lives.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { api, createAccount, type TestAccount, clientAddress } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';

/** An account on SHARD_1 (the helpers alternate shards) whose token was just used, so no touch is due. */
async function accountOnShardOne(): Promise<TestAccount> {
  for (;;) {
    const a = await createAccount();
    if ((await shardNumberOf(a.accountId)) !== 1) continue;
    await env.CONTROL_DB.prepare('UPDATE access_tokens SET last_used_at = ? WHERE account_id = ?')
      .bind(new Date().toISOString(), a.accountId)
      .run();
    return a;
  }
}

/** One request through the Worker with every statement counted per database binding. */
async function counted(method: string, path: string, token: string) {
  const statements: Record<string, number> = {};
  const bindings: Record<string, D1Database> = {};
  for (const [name, binding] of Object.entries(env)) {
    if (name !== 'CONTROL_DB' && !/^SHARD_\d+$/.test(name)) continue;
    statements[name] = 0;
    bindings[name] = new Proxy(binding as D1Database, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property === 'prepare' || property === 'batch' || property === 'exec') {
          return (...args: unknown[]) => {
            statements[name] += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://api.test${path}`, { method, headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': clientAddress() } }),
    { ...env, ...bindings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, json: (await res.json()) as any, statements }; // asserted field by field
}

describe('the request context', () => {
  it('answers GET /api/user for an account on SHARD_1 with one control lookup and no shard query', async () => {
    const a = await accountOnShardOne();
    const res = await counted('GET', '/api/user', a.token);
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(a.userId);
    expect(res.statements.CONTROL_DB).toBe(1);
    expect(res.statements.SHARD_0 + res.statements.SHARD_1).toBe(0);
  });

  it('reads a SHARD_1 account’s templates from SHARD_1 only, after the one control lookup', async () => {
    const a = await accountOnShardOne();
    const created = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { name: 'On shard one', documents: [{ name: 'doc', file: toBase64(await makePdf(1)) }] },
    });
    expect(created.status).toBe(201);
    const res = await counted('GET', '/api/templates', a.token);
    expect(res.status).toBe(200);
    expect(res.json.data.map((t: { id: string }) => t.id)).toEqual([created.json.id]);
    expect(res.statements.CONTROL_DB).toBe(1);
    expect(res.statements.SHARD_0).toBe(0);
    expect(res.statements.SHARD_1).toBeGreaterThan(0);
  });
});
