// The audit trail of what tokens, partner keys and Stripe did to an account. Tenant shard; rows older
// than 90 days move to R2 (src/scheduled/audit-archive.ts).
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    userId: integer('user_id'),
    accessTokenId: integer('access_token_id'),
    /** Who acted: the API token's prefix, a partner key's prefix (`ptk_…`), or `stripe`. */
    actor: text('actor'),
    /** e.g. access_token.create, account.update — `<resource>.<verb>`. */
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id').notNull(),
    /** What the action concerned beyond its resource, e.g. the disclosure version and SHA-256 a signer accepted. */
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    index('audit_events_account').on(t.accountId, t.id),
    // The archiver finds the oldest events past the archive age without a scan (src/scheduled/audit-archive.ts).
    index('audit_events_created').on(t.createdAt),
  ],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
