// Declares partner control plane routes: zod schemas, the partner security scheme and every response.
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { idempotency } from '../../middleware/idempotency';
import { requireJsonBody } from '../../middleware/json-body';
import { errorResponses, idempotencyHeaderSchema, type ErrorStatus } from '../openapi-helpers';

export const partnerSecurity = [{ PartnerKey: [] }];

type PartnerRouteOptions = {
  errors?: readonly ErrorStatus[];
  /** A create operation: accepts `Idempotency-Key`, bound to the calling partner key. */
  idempotent?: boolean;
};

const partnerIdempotency = idempotency({ owner: (c) => `partner:${c.var.partnerKeyHash}` });

export function partnerRoute<const R extends RouteConfig>(options: PartnerRouteOptions, route: R): R {
  const hasJsonBody = Boolean(route.request?.body?.content?.['application/json']);
  const takesInput = Boolean(route.request?.body || route.request?.query || route.request?.params);
  const statuses = new Set<ErrorStatus>([401, 429]);
  if (takesInput) statuses.add(400).add(422);
  if (route.path.includes('{')) statuses.add(404);
  if (options.idempotent) statuses.add(409).add(422);
  for (const status of options.errors ?? []) statuses.add(status);
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (hasJsonBody) middleware.push(requireJsonBody());
  if (options.idempotent) middleware.push(partnerIdempotency);
  const request = options.idempotent && !route.request?.headers ? { ...route.request, headers: idempotencyHeaderSchema } : route.request;
  return createRoute({
    ...route,
    ...(request ? { request } : {}),
    security: partnerSecurity,
    middleware,
    responses: { ...errorResponses([...statuses].sort()), ...route.responses },
  }) as R;
}
