// Accounts and who acts for them: users and API tokens. Control database (src/db/shards.ts).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { now } from './columns';
import { ACCOUNT_DEFAULT_LOCALE } from '../../shared/i18n/locales';

/** Signature levels, lowest first (spec › Signature level configuration). */
export const SIGNATURE_LEVELS = ['ses', 'aes', 'qes'] as const;
export type SignatureLevel = (typeof SIGNATURE_LEVELS)[number];

export const accounts = sqliteTable('accounts', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  locale: text('locale').notNull().default(ACCOUNT_DEFAULT_LOCALE),
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
  /**
   * The account's own Stripe credentials for payment fields (decisions.md › Public links and payments),
   * encrypted at rest (src/lib/encryption.ts, bound to the account id); only the key's last 4 are shown.
   */
  paymentsStripeSecretKey: text('payments_stripe_secret_key'),
  paymentsStripeWebhookSecret: text('payments_stripe_webhook_secret'),
  paymentsStripeKeyLast4: text('payments_stripe_key_last4'),
  /**
   * Signature level (spec › Signature level configuration; src/services/signature-levels): ses | aes |
   * qes, the highest level templates and submissions may ask for and the default of both.
   */
  signatureLevel: text('signature_level').$type<SignatureLevel>().notNull().default('ses'),
  /** The QES provider's label (free text, e.g. the CSC provider's name); null until one is set. */
  signatureProvider: text('signature_provider'),
  /**
   * The CSC v2 provider's credentials `{api_key, api_url, certificate_id}` as JSON, encrypted at rest
   * (src/lib/encryption.ts, bound to the account id); never returned by the API.
   */
  qesProviderCredentials: text('qes_provider_credentials'),
  /**
   * The tenant shard holding the account's rows (SHARD_<n>; docs/scaling.md). Chosen at creation, changed
   * only by a move (POST /api/partner/v1/accounts/{id}/move).
   */
  shard: integer('shard').notNull().default(0),
  /** While a move runs: the shard the rows are being copied to. Writes answer 409 until it is cleared. */
  movingToShard: integer('moving_to_shard'),
  /**
   * The running move's lease (src/services/account-move.ts): a random token and when it lapses. One
   * call at a time works on a move; another call takes it over only once the lease has lapsed (a crash).
   */
  moveLease: text('move_lease'),
  moveLeaseExpiresAt: text('move_lease_expires_at'),
  /**
   * Whether the account has an enabled webhook endpoint (kept by the webhook endpoint routes), so the
   * token lookup knows it without reading the shard: a change only wakes the fan-out when there is
   * somewhere to deliver to (src/middleware/outbox-drain). A stale `true` costs one wake; the cron
   * fan-out is the net behind a stale `false`.
   */
  hasWebhooks: integer('has_webhooks', { mode: 'boolean' }).notNull().default(false),
  /** Public document links (docs/document-links.md): whether webhook payloads carry them. */
  documentLinksEnabled: integer('document_links_enabled', { mode: 'boolean' }).notNull().default(false),
  /** Lifetime of links minted from now on, in days; null means they never expire. */
  documentLinkExpiryDays: integer('document_link_expiry_days').default(30),
  /** Every link carries the generation it was minted in; revoke-all bumps it, and older links answer 410. */
  documentLinkGeneration: integer('document_link_generation').notNull().default(0),
  /**
   * The key embed JWTs are signed with (docs/embedding.md): 32 random bytes, encrypted at rest
   * (src/lib/encryption.ts, bound to the account id), made on the first mint. Kept on the account row so
   * that verifying a token costs the one control lookup that also finds the account and its user.
   */
  embedKey: text('embed_key'),
  /** After a rotation: the key before it, which still verifies tokens until `embedKeyPreviousUntil`. */
  embedKeyPrevious: text('embed_key_previous'),
  embedKeyPreviousUntil: text('embed_key_previous_until'),
  /**
   * Origins allowed to frame the signing page (decisions.md › Embedding): normalised `scheme://host[:port]`,
   * https only outside development; empty means no site may frame it (src/services/embed/embed-origins.ts).
   */
  embedOrigins: text('embed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  /**
   * The account's default reminder schedule (issue 33 › 4): hours after the invitation at which signers who have
   * not finished are reminded, ascending, at most 5; null sends none. A submission takes it when created
   * unless it or its template has its own (src/services/submissions/reminder-schedule.ts).
   */
  reminderSchedule: text('reminder_schedule', { mode: 'json' }).$type<number[]>(),
  /**
   * Days after completion that a submission's documents and values are erased (issue 33 › 5,
   * PUT /api/settings/retention); null keeps them. A template's `preferences.retention_days` overrides it.
   */
  documentsRetentionDays: integer('documents_retention_days'),
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
    /** Console sign-in (src/services/identity/passwords.ts): the KDF's self-describing hash; null until set. */
    passwordHash: text('password_hash'),
    passwordChangedAt: text('password_changed_at'),
    /** TOTP (RFC 6238) secret, encrypted (src/lib/encryption.ts); set at enrolment, confirmed by `mfaEnabledAt`. */
    mfaSecret: text('mfa_secret'),
    mfaEnabledAt: text('mfa_enabled_at'),
    /**
     * The newest TOTP time step (Unix time / 30 s) a code was accepted for: a code of that step or an
     * earlier one is refused, so an observed code cannot be replayed (RFC 6238 §5.2).
     */
    mfaLastStep: integer('mfa_last_step'),
    /**
     * Code attempts counted against the user in the window that opened at `mfaFailuresSince`: taken before
     * a code is checked and given back when it was right (src/services/identity/mfa-throttle.ts).
     */
    mfaFailures: integer('mfa_failures').notNull().default(0),
    mfaFailuresSince: text('mfa_failures_since'),
    /**
     * The address an admin set that has not confirmed yet: `email` keeps signing in until the link sent
     * here is opened (docs/identity.md › Changing an email).
     */
    pendingEmail: text('pending_email'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  // users_email: console sign-in looks an email up across accounts (src/services/identity/sign-in.ts).
  (t) => [uniqueIndex('users_account_email').on(t.accountId, sql`lower(${t.email})`), index('users_email').on(sql`lower(${t.email})`)],
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
  (t) => [uniqueIndex('access_tokens_hash').on(t.tokenHash), index('access_tokens_account').on(t.accountId, t.id)],
);

export type Account = typeof accounts.$inferSelect;
export type User = typeof users.$inferSelect;
export type AccessToken = typeof accessTokens.$inferSelect;

/**
 * Control database: blocks of 2^32 row ids handed to shards (src/db/id-blocks.ts). A shard's first block
 * is its index; a move gives the target shard a fresh block above every id in use, so the moved rows
 * keep their ids and the account's new rows still sort after them.
 */
export const idBlocks = sqliteTable('id_blocks', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  shard: integer('shard').notNull(),
  reason: text('reason').notNull(),
  createdAt: text('created_at').notNull().default(now),
});
