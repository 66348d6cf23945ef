// Handlers for the account audit trail.
import type { AppRouteHandler } from '../app-route-handler';
import type { AuditEvent } from '../../db/schema/index';
import { paginateByCursor } from '../../lib/pagination';
import { listAuditTrail } from '../../services/audit-trail/list-audit-trail';
import type * as routes from './audit-events.routes';

function serializeAuditEvent(event: AuditEvent) {
  return {
    id: event.id,
    action: event.action,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    user_id: event.userId,
    access_token_id: event.accessTokenId,
    actor: event.actor,
    method: event.method,
    path: event.path,
    status: event.status,
    ip: event.ip,
    user_agent: event.userAgent,
    request_id: event.requestId,
    created_at: event.createdAt,
    details: event.details ?? null,
  };
}

export const listAuditEvents: AppRouteHandler<typeof routes.listAuditEvents> = async (c) => {
  const query = c.req.valid('query');
  const db = c.var.scope.db;
  const filters = {
    action: query.action,
    resourceType: query.resource_type,
    resourceId: query.resource_id,
    userId: query.user_id,
    createdAfter: query.created_after && new Date(query.created_after).toISOString(),
    createdBefore: query.created_before && new Date(query.created_before).toISOString(),
  };
  const page = await paginateByCursor(query, (window) => listAuditTrail(db, c.env.FILES, c.var.principal.account.id, filters, window));
  return c.json({ data: page.data.map(serializeAuditEvent), pagination: page.pagination }, 200);
};
