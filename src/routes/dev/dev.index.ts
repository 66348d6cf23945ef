// Development-only routes (404 unless ENVIRONMENT=development): tools for local work and benchmarks.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { createDb } from '../../db/client';
import { findPrincipalByTokenHash } from '../../db/queries/access-tokens';
import { listOutbox } from '../../db/queries/messages';
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
  /**
   * The development inbox: every email and SMS the service sent, newest first (decisions.md › Email
   * and SMS). Filters: `to`, `kind`, `account_id`; `limit` up to 200.
   */
  dev.get('/outbox', async (c) => {
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 50, 1), 200);
    const accountId = Number(c.req.query('account_id')) || undefined;
    const rows = await listOutbox(createDb(c.env.DB), { recipient: c.req.query('to'), kind: c.req.query('kind'), accountId }, limit);
    return c.json({
      data: rows.map((m) => ({
        id: m.id,
        account_id: m.accountId,
        channel: m.channel,
        kind: m.kind,
        to: m.recipient,
        subject: m.subject,
        text: m.text,
        html: m.html,
        status: m.status,
        attempts: m.attempts,
        transport: m.transport,
        error: m.error,
        submission_id: m.submissionId,
        submitter_id: m.submitterId,
        created_at: m.createdAt,
        sent_at: m.sentAt,
      })),
    });
  });
  return dev;
}
