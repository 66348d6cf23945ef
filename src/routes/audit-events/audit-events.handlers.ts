// Handlers for the account audit trail.
import type { AppRouteHandler } from '../app-route-handler';
import { paginateByCursor } from '../../lib/pagination';
import { auditEventJson } from '../../services/audit-trail/archive-part';
import { listAuditTrail } from '../../services/audit-trail/list-audit-trail';
import type * as routes from './audit-events.routes';

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
  return c.json({ data: page.data.map(auditEventJson), pagination: page.pagination }, 200);
};
