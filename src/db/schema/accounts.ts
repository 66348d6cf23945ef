// Accounts and who acts for them: users, API tokens, and the audit trail of what they did.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { now } from './columns';

export const accounts = sqliteTable('accounts', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  locale: text('locale').notNull().default('en-US'),
  timezone: text('timezone').notNull().default('UTC'),
  mfaEnforced: integer('mfa_enforced', { mode: 'boolean' }).notNull().default(false),
  /** free | pro | enterprise — limits live in src/lib/plans.ts. */
  plan: text('plan').notNull().default('free'),
  suspendedAt: text('suspended_at'),
  /** The Stripe subscription that pays for `plan`; its cancellation returns the account to free. */
  stripeSubscriptionId: text('stripe_subscription_id'),
  stripeCustomerId: text('stripe_customer_id'),
  /**
   * Stripe's `created` (Unix seconds) of the newest event that changed the plan: Stripe does not deliver
   * events in order, and an older one arriving later must not undo a newer one.
   */
  stripePlanEventCreated: integer('stripe_plan_event_created'),
  createdAt: text('created_at').notNull().default(now),
  updatedAt: text('updated_at').notNull().default(now),
});

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    /** admin | editor | viewer */
    role: text('role').notNull().default('viewer'),
    archivedAt: text('archived_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('users_account_email').on(t.accountId, sql`lower(${t.email})`)],
);

export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** SHA-256 hex of the full token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    /** JSON array of scope names; empty means full access (spec › Scopes rule 2). */
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** JSON array of IPs / CIDR ranges; empty means any IP. */
    allowedIps: text('allowed_ips', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
    lastUsedAt: text('last_used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('access_tokens_hash').on(t.tokenHash),
    index('access_tokens_account').on(t.accountId, t.id),
  ],
);

export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
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
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    index('audit_events_account').on(t.accountId, t.id),
    // The archiver finds the oldest events past the archive age without a scan (src/scheduled/audit-archive.ts).
    index('audit_events_created').on(t.createdAt),
  ],
);

export type Account = typeof accounts.$inferSelect;
export type User = typeof users.$inferSelect;
export type AccessToken = typeof accessTokens.$inferSelect;
export type AuditEvent = typeof auditEvents.$inferSelect;
