// Route declarations for webhook endpoints and their delivery log (spec › Endpoints › Webhooks; Events).
import { z } from '@hono/zod-openapi';
import { EVENT_NAMES } from '../../lib/events';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { errorSchema, idParamsSchema, tenantRoute } from '../openapi-helpers';

const read = { scopes: ['webhooks:read'], feature: 'webhooks' } as const;
const write = { scopes: ['webhooks:write'], feature: 'webhooks' } as const;
const tags = ['Webhooks'];

export const webhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()).openapi({ description: 'Subscribed event names; empty means every event.' }),
    secret: z.string().openapi({
      description:
        'HMAC-SHA256 key (its UTF-8 bytes) of X-Webhook-Signature and of the Standard Webhooks `webhook-signature` ' +
        "(verify with `new Webhook(secret, { format: 'raw' })`); also sent as X-Webhook-Secret.",
    }),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('WebhookEndpoint');

export const webhookDeliverySchema = z
  .object({
    id: z.number().int().openapi({ description: 'This log entry (one attempt).' }),
    webhook_id: z.number().int(),
    event: z.string(),
    status: z.enum(['pending', 'success', 'failed']).openapi({ description: 'pending: scheduled, not attempted yet.' }),
    http_status: z.number().int().nullable(),
    response_status: z.number().int().nullable().openapi({ description: 'Same as http_status.' }),
    url: z.string(),
    request_headers: z
      .record(z.string(), z.string())
      .openapi({ description: 'Headers sent, X-Webhook-Secret redacted; empty until attempted.' }),
    request_body: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The body sent: `{event, timestamp, data}` (+ `test: true` on test sends).' }),
    response_body: z.string().nullable().openapi({ description: 'Truncated to 4,096 characters.' }),
    response_time_ms: z.number().int().nullable(),
    attempt: z.number().int(),
    max_attempts: z.number().int().openapi({ description: '6 for deliveries; 1 for test sends, which are never retried.' }),
    error_message: z.string().nullable(),
    delivered_at: z.string().nullable().openapi({ description: 'When a 2xx was received; null otherwise.' }),
    attempted_at: z.string().nullable(),
    next_attempt_at: z.string().nullable().openapi({ description: 'When a pending attempt is due.' }),
    created_at: z.string(),
    test: z.boolean(),
    delivery_uuid: z
      .string()
      .openapi({ description: 'X-Webhook-Delivery-Id: shared by the attempts of one delivery; a redelivery gets a new one.' }),
    redelivery_of: z.number().int().nullable().openapi({ description: 'The log entry a redelivery copied its body from.' }),
  })
  .openapi('WebhookDelivery');

const eventNames = z.array(z.string().max(64)).max(EVENT_NAMES.length * 2);

export const createWebhookBody = z.object({
  url: z.string().max(2048).openapi({ example: 'https://example.com/webhooks/signing' }),
  events: eventNames.default([]).openapi({ description: `Any of: ${EVENT_NAMES.join(', ')}. Empty or omitted means every event.` }),
  secret: z.string().max(256).optional().openapi({ description: '16–128 visible ASCII characters; generated (`whsec_…`) when omitted.' }),
  enabled: z.boolean().default(true),
});

export const updateWebhookBody = z.object({
  url: z.string().max(2048).optional(),
  events: eventNames.optional(),
  secret: z.string().max(256).optional(),
  enabled: z.boolean().optional(),
});

const webhookResponse = (description: string, status: 200 | 201 = 200) => ({
  [status]: { description, content: { 'application/json': { schema: webhookSchema } } },
});

export const createWebhook = tenantRoute(
  { ...write, idempotent: true, errors: [502] },
  {
    method: 'post',
    path: '/webhooks',
    tags,
    summary: 'Create a webhook endpoint',
    request: { body: { required: true, content: { 'application/json': { schema: createWebhookBody } } } },
    responses: webhookResponse('The endpoint, with its secret.', 201),
  },
);

export const listWebhooks = tenantRoute(read, {
  method: 'get',
  path: '/webhooks',
  tags,
  summary: 'List webhook endpoints',
  request: { query: cursorQuerySchema },
  responses: {
    200: {
      description: 'A page of endpoints, newest first.',
      content: { 'application/json': { schema: z.object({ data: z.array(webhookSchema), pagination: cursorPaginationSchema }) } },
    },
  },
});

export const getWebhook = tenantRoute(read, {
  method: 'get',
  path: '/webhooks/{id}',
  tags,
  summary: 'Get a webhook endpoint',
  request: { params: idParamsSchema },
  responses: webhookResponse('The endpoint.'),
});

export const updateWebhook = tenantRoute(
  { ...write, errors: [502] },
  {
    method: 'put',
    path: '/webhooks/{id}',
    tags,
    summary: 'Change a webhook endpoint',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: updateWebhookBody } } } },
    responses: webhookResponse('The updated endpoint.'),
  },
);

export const deleteWebhook = tenantRoute(write, {
  method: 'delete',
  path: '/webhooks/{id}',
  tags,
  summary: 'Delete a webhook endpoint; its pending deliveries are not sent',
  request: { params: idParamsSchema },
  responses: { 204: { description: 'Deleted.' } },
});

export const deliveryQuerySchema = cursorQuerySchema.extend({
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(25)
    .openapi({ description: 'Entries per page, 1 to 100.', example: 25 }),
  status: z.enum(['success', 'failed', 'pending']).optional(),
  event: z.enum(EVENT_NAMES).optional(),
});

export const listDeliveries = tenantRoute(read, {
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  tags,
  summary: 'The delivery log: every attempt, retries and test sends included, newest first',
  request: { params: idParamsSchema, query: deliveryQuerySchema },
  responses: {
    200: {
      description: 'A page of log entries.',
      content: { 'application/json': { schema: z.object({ data: z.array(webhookDeliverySchema), pagination: cursorPaginationSchema }) } },
    },
  },
});

export const deliveryParamsSchema = idParamsSchema.extend({
  delivery_id: z.coerce
    .number({ error: 'must be an integer id' })
    .int('must be an integer id')
    .positive('must be a positive integer id')
    .openapi({ param: { name: 'delivery_id', in: 'path' }, example: 1 }),
});

export const getDelivery = tenantRoute(read, {
  method: 'get',
  path: '/webhooks/{id}/deliveries/{delivery_id}',
  tags,
  summary: 'Get one delivery log entry',
  request: { params: deliveryParamsSchema },
  responses: { 200: { description: 'The log entry.', content: { 'application/json': { schema: webhookDeliverySchema } } } },
});

export const redeliver = tenantRoute(
  { ...write, idempotent: true },
  {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    tags,
    summary: 'Send a logged delivery’s original body again, under a fresh delivery id',
    description: 'Queued, not sent synchronously; the new delivery is retried on the usual schedule.',
    request: { params: deliveryParamsSchema },
    responses: { 201: { description: 'The new, pending delivery.', content: { 'application/json': { schema: webhookDeliverySchema } } } },
  },
);

const testResultSchema = z
  .object({ success: z.literal(true), delivery_id: z.number().int(), delivery: webhookDeliverySchema })
  .openapi('WebhookTestResult');

const testFailureSchema = errorSchema
  .extend({ delivery_id: z.number().int().optional(), delivery: webhookDeliverySchema.optional() })
  .openapi('WebhookTestFailure');

export const testWebhook = tenantRoute(
  { ...write, idempotent: true },
  {
    method: 'post',
    path: '/webhooks/{id}/test',
    tags,
    summary: 'Send sample data of one event now, synchronously',
    description:
      'The body has the real shape of the event with obviously fake values, `test: true` at top level and the header ' +
      '`X-Webhook-Test: true`. Not retried. Without `event`: the first subscribed event, or form.completed.',
    request: {
      params: idParamsSchema,
      body: { required: false, content: { 'application/json': { schema: z.object({ event: z.string().max(64).optional() }) } } },
    },
    responses: {
      200: { description: 'The endpoint answered 2xx.', content: { 'application/json': { schema: testResultSchema } } },
      422: {
        description: 'An unknown event (nothing sent), or the send failed: then `delivery_id` names the logged attempt.',
        content: { 'application/json': { schema: testFailureSchema } },
      },
    },
  },
);
