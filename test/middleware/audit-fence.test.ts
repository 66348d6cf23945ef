// The audit middleware when the account starts moving between the request's own write and its trail row.
import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/app-base';
import type { AppEnv } from '../../src/app-env';
import { auditTrail } from '../../src/middleware/audit';
import { controlDatabase } from '../../src/middleware/databases';
import { createAccount } from '../helpers';

describe('auditTrail during an account move', () => {
  it('keeps the answer of a request whose trail row meets the fence set after its write', async () => {
    const { accountId } = await createAccount();
    await env.CONTROL_DB.prepare('UPDATE accounts SET shard = 0 WHERE id = ?').bind(accountId).run();
    const app = new Hono<AppEnv>();
    app.onError(errorResponse);
    app.use('*', controlDatabase());
    app.use('*', auditTrail({ subject: () => ({ accountId, userId: null, accessTokenId: null, actor: 'test' }) }));
    // The request's change commits, then the move's fence arrives before the trail row is written.
    app.post('/change', async (c) => {
      await env.SHARD_0!.prepare("INSERT INTO account_fences (account_id, reason) VALUES (?, 'moving')").bind(accountId).run();
      return c.json({ changed: true }, 201);
    });

    const res = await app.request('/change', { method: 'POST' }, env);

    expect(res.status).toBe(201);
    expect(await env.SHARD_0!.prepare('SELECT count(*) AS n FROM audit_events WHERE account_id = ?').bind(accountId).first('n')).toBe(0);
  });
});
