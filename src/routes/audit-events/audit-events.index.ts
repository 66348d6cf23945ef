// Mounts the audit trail routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './audit-events.handlers';
import * as routes from './audit-events.routes';

export function mountAuditEvents(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listAuditEvents, handlers.listAuditEvents);
}
