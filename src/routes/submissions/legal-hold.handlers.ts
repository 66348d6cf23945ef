// Handlers for legal holds: load the submission, set or release its hold, answer it.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { baseUrl, clientIp } from '../../lib/request';
import * as holds from '../../services/submissions/legal-hold';
import type { AppRouteHandler } from '../app-route-handler';
import type * as routes from './legal-hold.routes';
import { loadSubmission } from './submissions.handlers';
import { serializeSubmission } from './submissions.serialize';

function eventContext(c: Context<AppEnv>) {
  return {
    db: c.var.scope.db,
    account: c.var.principal.account,
    apiBase: baseUrl(c.req.raw, c.env.APP_URL),
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent') ?? null,
  };
}

export const setLegalHold: AppRouteHandler<typeof routes.setLegalHold> = async (c) => {
  const ctx = eventContext(c);
  const scope = await loadSubmission(c, ctx.db, c.req.valid('param').id);
  const body = c.req.valid('json') ?? {};
  const held = await holds.setLegalHold(ctx, scope, { userId: c.var.principal.user.id, reason: body.reason || undefined });
  c.set('audit', { action: 'submission.legal_hold', resourceType: 'submission', resourceId: held.submission.id });
  return c.json(serializeSubmission(held, ctx.apiBase), 200);
};

export const releaseLegalHold: AppRouteHandler<typeof routes.releaseLegalHold> = async (c) => {
  const ctx = eventContext(c);
  const scope = await loadSubmission(c, ctx.db, c.req.valid('param').id);
  const released = await holds.releaseLegalHold(ctx, scope, { userId: c.var.principal.user.id });
  c.set('audit', { action: 'submission.legal_hold_release', resourceType: 'submission', resourceId: released.submission.id });
  return c.json(serializeSubmission(released, ctx.apiBase), 200);
};
