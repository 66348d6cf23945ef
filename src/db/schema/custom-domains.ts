// Custom signing domains (spec › Other endpoints; decisions.md › Brands and domains). Control database:
// a request's Host is resolved to its domain before the account is known (docs/custom-domains.md).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { accounts } from './accounts';
import { now } from './columns';

/** pending: added, ownership not proven · verified: TXT record seen, not yet activated · active: serving · failed: activation refused. */
export const CUSTOM_DOMAIN_STATUSES = ['pending', 'verified', 'active', 'failed'] as const;
export type CustomDomainStatus = (typeof CUSTOM_DOMAIN_STATUSES)[number];

export const customDomains = sqliteTable(
  'custom_domains',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /**
     * Lower-case, no trailing dot. Once proven (any status but `pending`) unique across all accounts (one
     * Host, one tenant); unproven claims of several accounts may wait side by side, and the first to prove
     * the TXT record takes the name (docs/custom-domains.md › Claims).
     */
    hostname: text('hostname').notNull(),
    websiteUrl: text('website_url'),
    /** Branding keys (spec › Branding), checked by src/services/branding/branding-rules.ts › checkDomainBranding. */
    branding: text('branding', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    /** The value the ownership TXT record must hold (`_signing-service-verify.<hostname>`). */
    verificationToken: text('verification_token').notNull(),
    status: text('status').$type<CustomDomainStatus>().notNull().default('pending'),
    /** Cloudflare for SaaS custom hostname id, once activation created it. */
    cloudflareHostnameId: text('cloudflare_hostname_id'),
    /** Cloudflare's `ssl.status` (e.g. pending_validation, active); null before activation. */
    certificateStatus: text('certificate_status'),
    verifiedAt: text('verified_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    index('custom_domains_hostname').on(t.hostname),
    uniqueIndex('custom_domains_proven_hostname').on(t.hostname).where(sql`${t.status} <> 'pending'`),
    uniqueIndex('custom_domains_account_hostname').on(t.accountId, t.hostname),
    index('custom_domains_account').on(t.accountId, t.id),
    // At most one default per account, held by the database even when two requests race.
    uniqueIndex('custom_domains_one_default')
      .on(t.accountId)
      .where(sql`${t.isDefault} = 1`),
  ],
);

export type CustomDomain = typeof customDomains.$inferSelect;
