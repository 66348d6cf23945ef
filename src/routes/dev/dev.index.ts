// Development-only routes (404 unless ENVIRONMENT=development): tools for local work and benchmarks.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { createDb } from '../../db/client';
import { findPrincipalByTokenHash } from '../../db/queries/access-tokens';
import { serializeUser } from '../users/users.handlers';
import { serializeAccount } from '../settings/settings.handlers';

export function createDevRoutes() {
  const dev = new Hono<AppEnv>();
  dev.use('*', async function developmentOnly(c, next) {
    if (c.env.ENVIRONMENT !== 'development') return c.json({ error: `No route for ${c.req.method} ${c.req.path}.` }, 404);
    await next();
  });

  /**
   * The floor of bench/api: the same D1 read GET /api/user costs (token → user → account), with no
   * authentication, validation or audit middleware around it.
   */
  dev.get('/bench/user', async (c) => {
    const found = await findPrincipalByTokenHash(createDb(c.env.DB), c.req.query('token_hash') ?? '');
    if (!found) return c.json({ error: 'No token with that hash.' }, 404);
    return c.json({ ...serializeUser(found.user), account: serializeAccount(found.account) });
  });
  return dev;
}
