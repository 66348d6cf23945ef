// Webhook endpoints and their delivery log. A log row is one attempt; the attempts of one delivery share
// `delivery_uuid` (the X-Webhook-Delivery-Id header) and the exact body bytes (spec › Webhook delivery).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import { events } from './events';

export const webhooks = sqliteTable(
  'webhooks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    url: text('url').notNull(),
    /** Subscribed event names; empty means every event (decisions.md › Webhooks). */
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    /** HMAC key, sent as X-Webhook-Secret too (spec › Headers on every delivery), so it is stored as is. */
    secret: text('secret').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** Deleted endpoints are kept so pending attempts can be closed off; the API never shows them. */
    deletedAt: text('deleted_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [index('webhooks_account').on(t.accountId, t.id)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id),
    /** The outbox row this delivery came from; null for test sends. */
    eventId: integer('event_id').references(() => events.id),
    event: text('event').notNull(),
    /** X-Webhook-Delivery-Id: one per delivery, unchanged across its retries; a redelivery gets a new one. */
    deliveryUuid: text('delivery_uuid').notNull(),
    attempt: integer('attempt').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    /** pending (scheduled, not yet attempted) | success | failed */
    status: text('status').notNull(),
    /** The endpoint URL when the row was scheduled, replaced by the one actually called. */
    url: text('url').notNull(),
    /** The exact bytes signed and sent; every retry and redelivery replays them. */
    requestBody: text('request_body').notNull(),
    /** Headers sent, with the secret redacted; null until attempted. */
    requestHeaders: text('request_headers', { mode: 'json' }).$type<Record<string, string>>(),
    httpStatus: integer('http_status'),
    responseBody: text('response_body'),
    responseTimeMs: integer('response_time_ms'),
    errorMessage: text('error_message'),
    /** When a pending attempt is due. */
    nextAttemptAt: text('next_attempt_at'),
    /** A consumer holds the attempt until then; an expired lease means it crashed (see sweep). */
    leaseUntil: text('lease_until'),
    attemptedAt: text('attempted_at'),
    deliveredAt: text('delivered_at'),
    test: integer('test', { mode: 'boolean' }).notNull().default(false),
    /** The log row a redelivery copied its body from. */
    redeliveryOf: integer('redelivery_of'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    index('webhook_deliveries_webhook').on(t.webhookId, t.id),
    // Fan-out is idempotent: one delivery per (event, endpoint); draining twice inserts nothing new.
    uniqueIndex('webhook_deliveries_fan_out')
      .on(t.eventId, t.webhookId, t.attempt)
      .where(sql`${t.redeliveryOf} IS NULL AND ${t.test} = 0`),
    // One row per attempt of a delivery: recording an attempt twice cannot schedule two retries.
    uniqueIndex('webhook_deliveries_attempt').on(t.deliveryUuid, t.attempt),
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    // Retention (src/scheduled/retention.ts): the oldest rows, and whether an event is still named by one.
    index('webhook_deliveries_created').on(t.createdAt),
    index('webhook_deliveries_event').on(t.eventId),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;
