// Handlers for webhook endpoints and their delivery log.
import type { AppRouteHandler } from '../app-route-handler';
import type { AppEnv } from '../../app-env';
import * as deliveriesDb from '../../db/queries/webhook-deliveries';
import * as webhooksDb from '../../db/queries/webhooks';
import type { Webhook, WebhookDelivery } from '../../db/schema/index';
import { ApiError, notFound } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import { deliveryContext } from '../../services/webhooks/context';
import { changeWebhook, createWebhook as createEndpoint, recordWebhookPresence } from '../../services/webhooks/endpoints';
import { redeliver as redeliverOnce, sendTestWebhook, testEventFor } from '../../services/webhooks/manual-sends';
import { hostResolverFromEnv } from '../../services/webhooks/dns-over-https';
import type { DestinationRules } from '../../services/webhooks/endpoints';
import { urlPolicyFromEnv } from '../../services/webhooks/url-policy';
import type * as routes from './webhooks.routes';

export function serializeWebhook(hook: Webhook) {
  return {
    id: hook.id,
    url: hook.url,
    events: hook.events,
    secret: hook.secret,
    enabled: hook.enabled,
    created_at: hook.createdAt,
    updated_at: hook.updatedAt,
  };
}

function parsedBody(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function serializeDelivery(row: WebhookDelivery) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event: row.event,
    status: row.status as 'pending' | 'success' | 'failed',
    http_status: row.httpStatus,
    response_status: row.httpStatus,
    url: row.url,
    request_headers: row.requestHeaders ?? {},
    request_body: parsedBody(row.requestBody),
    response_body: row.responseBody,
    response_time_ms: row.responseTimeMs,
    attempt: row.attempt,
    max_attempts: row.maxAttempts,
    error_message: row.errorMessage,
    delivered_at: row.deliveredAt,
    attempted_at: row.attemptedAt,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt : null,
    created_at: row.createdAt,
    test: row.test,
    delivery_uuid: row.deliveryUuid,
    redelivery_of: row.redeliveryOf,
  };
}

function destinationRules(env: AppEnv['Bindings']): DestinationRules {
  return { policy: urlPolicyFromEnv(env), resolve: hostResolverFromEnv(env) };
}

async function findWebhook(c: { var: AppEnv['Variables'] }, id: number): Promise<Webhook> {
  const hook = await webhooksDb.getWebhook(c.var.scope.db, c.var.principal.account.id, id);
  if (!hook) throw notFound('Webhook');
  return hook;
}

export const createWebhook: AppRouteHandler<typeof routes.createWebhook> = async (c) => {
  const hook = await createEndpoint(c.var.scope.db, c.var.principal.account.id, c.req.valid('json'), destinationRules(c.env));
  await recordWebhookPresence(c.var.control, c.var.scope.db, c.var.principal.account.id);
  c.set('audit', { action: 'webhook.create', resourceType: 'webhook', resourceId: hook.id });
  return c.json(serializeWebhook(hook), 201);
};

export const listWebhooks: AppRouteHandler<typeof routes.listWebhooks> = async (c) => {
  const db = c.var.scope.db;
  const page = await paginateByCursor(c.req.valid('query'), (window) => webhooksDb.listWebhooks(db, c.var.principal.account.id, window));
  return c.json({ data: page.data.map(serializeWebhook), pagination: page.pagination }, 200);
};

export const getWebhook: AppRouteHandler<typeof routes.getWebhook> = async (c) => {
  return c.json(serializeWebhook(await findWebhook(c, c.req.valid('param').id)), 200);
};

export const updateWebhook: AppRouteHandler<typeof routes.updateWebhook> = async (c) => {
  const { id } = c.req.valid('param');
  const hook = await changeWebhook(
    c.var.scope.db,
    c.var.principal.account.id,
    id,
    c.req.valid('json'),
    destinationRules(c.env),
    new Date().toISOString(),
  );
  await recordWebhookPresence(c.var.control, c.var.scope.db, c.var.principal.account.id);
  c.set('audit', { action: 'webhook.update', resourceType: 'webhook', resourceId: id });
  return c.json(serializeWebhook(hook), 200);
};

export const deleteWebhook: AppRouteHandler<typeof routes.deleteWebhook> = async (c) => {
  const { id } = c.req.valid('param');
  if (!(await webhooksDb.deleteWebhook(c.var.scope.db, c.var.principal.account.id, id, new Date().toISOString()))) {
    throw notFound('Webhook');
  }
  await recordWebhookPresence(c.var.control, c.var.scope.db, c.var.principal.account.id);
  c.set('audit', { action: 'webhook.delete', resourceType: 'webhook', resourceId: id });
  return c.body(null, 204);
};

export const listDeliveries: AppRouteHandler<typeof routes.listDeliveries> = async (c) => {
  const { id } = c.req.valid('param');
  const { status, event, ...cursor } = c.req.valid('query');
  const hook = await findWebhook(c, id);
  const db = c.var.scope.db;
  const page = await paginateByCursor(cursor, (window) =>
    deliveriesDb.listDeliveries(db, hook.accountId, hook.id, { status, event }, window),
  );
  return c.json({ data: page.data.map(serializeDelivery), pagination: page.pagination }, 200);
};

export const getDelivery: AppRouteHandler<typeof routes.getDelivery> = async (c) => {
  const { id, delivery_id } = c.req.valid('param');
  const hook = await findWebhook(c, id);
  const row = await deliveriesDb.getDelivery(c.var.scope.db, hook.accountId, hook.id, delivery_id);
  if (!row) throw notFound('Delivery');
  return c.json(serializeDelivery(row), 200);
};

export const redeliver: AppRouteHandler<typeof routes.redeliver> = async (c) => {
  const { id, delivery_id } = c.req.valid('param');
  const hook = await findWebhook(c, id);
  const ctx = deliveryContext(c.env, c.var.scope.db);
  const original = await deliveriesDb.getDelivery(ctx.db, hook.accountId, hook.id, delivery_id);
  if (!original) throw notFound('Delivery');
  const row = await redeliverOnce(ctx, c.var.scope.queues.webhooks, hook, original, Date.now());
  c.set('audit', { action: 'webhook.redeliver', resourceType: 'webhook_delivery', resourceId: row.id });
  return c.json(serializeDelivery(row), 201);
};

export const testWebhook: AppRouteHandler<typeof routes.testWebhook> = async (c) => {
  const hook = await findWebhook(c, c.req.valid('param').id);
  const event = testEventFor(hook, c.req.valid('json').event);
  const row = await sendTestWebhook(deliveryContext(c.env, c.var.scope.db), hook, event, Date.now());
  c.set('audit', { action: 'webhook.test', resourceType: 'webhook_delivery', resourceId: row.id });
  const delivery = serializeDelivery(row);
  if (row.status !== 'success') {
    // spec › Test sends rule 4: a failed test send is 422 carrying the logged delivery's id.
    throw new ApiError(422, `The test delivery failed: ${row.errorMessage ?? 'no 2xx response'}`, { delivery_id: row.id, delivery });
  }
  return c.json({ success: true as const, delivery_id: row.id, delivery }, 200);
};
