// Records every authenticated mutating request in the account's audit trail (issue: Audit trail).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { createDb } from '../../db/client';
import { insertAuditEvent } from '../../db/queries/audit-events';
import { clientIp } from '../../lib/request';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type AuditOptions = {
  /** Methods that count as mutating. */
  methods?: ReadonlySet<string>;
};

export function auditTrail(options: AuditOptions = {}): MiddlewareHandler<AppEnv> {
  const methods = options.methods ?? MUTATING;
  return async function auditTrailMiddleware(c, next) {
    await next();
    const principal = c.get('principal');
    if (!principal || !methods.has(c.req.method)) return;
    const note = c.get('audit');
    // Refused attempts are recorded too (status ≥ 400): they matter as much as the changes.
    await insertAuditEvent(createDb(c.env.DB), {
      accountId: principal.account.id,
      userId: principal.user.id,
      accessTokenId: principal.token.id,
      action: note?.action ?? `${c.req.method.toLowerCase()} ${c.req.path}`,
      resourceType: note?.resourceType ?? null,
      resourceId: note?.resourceId === undefined ? null : String(note.resourceId),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ip: clientIp(c.req.raw),
      userAgent: c.req.header('User-Agent')?.slice(0, 512) ?? null,
      requestId: c.var.requestId,
    });
  };
}
