// The index of audit events moved to R2 (spec decisions › Scale: rows older than 90 days live in R2 as
// NDJSON per account and month). One row per R2 object ("part"): the reader finds the parts below or
// above a cursor here without listing R2, and checks each object against the SHA-256 recorded here.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export const auditArchives = sqliteTable(
  'audit_archives',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** `YYYY-MM` (UTC) of the events' `created_at`: a part never spans two months. */
    month: text('month').notNull(),
    /** Smallest and largest audit event id in the part; parts of one account never share an id. */
    firstId: integer('first_id').notNull(),
    lastId: integer('last_id').notNull(),
    eventCount: integer('event_count').notNull(),
    /** SHA-256 hex of the object's bytes, also in its R2 customMetadata; a read that disagrees fails. */
    sha256: text('sha256').notNull(),
    /** Key in the FILES bucket: `audit/<account>/<YYYY-MM>/<first_id>-<last_id>.ndjson`. */
    r2Key: text('r2_key').notNull(),
    byteSize: integer('byte_size').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    // Also what makes a second archiving of the same events fail its batch (src/scheduled/audit-archive.ts).
    uniqueIndex('audit_archives_account_first').on(t.accountId, t.firstId),
    index('audit_archives_account_last').on(t.accountId, t.lastId),
    uniqueIndex('audit_archives_key').on(t.r2Key),
    // The retention sweep finds months past 7 years (src/scheduled/audit-archive.ts).
    index('audit_archives_month').on(t.month, t.accountId),
  ],
);

export type AuditArchive = typeof auditArchives.$inferSelect;
