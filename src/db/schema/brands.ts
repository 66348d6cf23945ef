// Named brands of an account (spec › Brand): a name and the branding a template or submission picks by `preferences.brand_id`.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

/** The branding keys a brand (or a custom domain) stores (spec › Branding); absent keys are unset. */
export type BrandingValues = {
  display_title?: string;
  logo_url?: string;
  company_name?: string;
  favicon_url?: string;
  primary_button_color?: string;
  header_color?: string;
  show_branding?: boolean;
};

export const brands = sqliteTable(
  'brands',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    branding: text('branding', { mode: 'json' }).$type<BrandingValues>().notNull(),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    index('brands_account').on(t.accountId, t.id),
    // Names are unique per account ignoring case, decided by SQLite so that two concurrent creates cannot both win.
    uniqueIndex('brands_account_name').on(t.accountId, sql`lower(${t.name})`),
  ],
);

export type Brand = typeof brands.$inferSelect;
