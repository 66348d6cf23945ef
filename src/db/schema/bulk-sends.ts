// Bulk sends (issue 33 › 3): one CSV or JSON `rows` upload of a template, its rows stored in chunks that
// the messages queue turns into submissions, and each processed row's outcome.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export type BulkSendStatus = 'queued' | 'processing' | 'completed';
export type BulkRowStatus = 'created' | 'failed';

/** What every row of the bulk send shares, fixed when it was accepted. */
export type BulkSendSettings = {
  send_email?: boolean;
  send_sms?: boolean;
  submitters_order?: 'sequential' | 'parallel';
  expire_at?: string | null;
  message?: { subject?: string; body?: string };
};

export const bulkSends = sqliteTable(
  'bulk_sends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    templateId: integer('template_id').notNull(),
    createdById: integer('created_by_id'),
    status: text('status').$type<BulkSendStatus>().notNull().default('queued'),
    total: integer('total').notNull(),
    created: integer('created').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    settings: text('settings', { mode: 'json' }).$type<BulkSendSettings>().notNull(),
    /** The request's origin: the signing links' base and the API base of event payloads. */
    linkBase: text('link_base').notNull(),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
    completedAt: text('completed_at'),
  },
  (t) => [index('bulk_sends_account').on(t.accountId, t.id)],
);

/** Up to 100 rows of a bulk send as submission inputs; `done_at` is set in the batch that stores them. */
export const bulkSendChunks = sqliteTable(
  'bulk_send_chunks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    bulkSendId: integer('bulk_send_id').notNull(),
    chunk: integer('chunk').notNull(),
    /** `[{ row, input }]`: the 1-based row number and its SubmissionInput; emptied once done. */
    rows: text('rows', { mode: 'json' }).$type<{ row: number; input: unknown }[]>().notNull(),
    doneAt: text('done_at'),
  },
  (t) => [uniqueIndex('bulk_send_chunks_chunk').on(t.bulkSendId, t.chunk)],
);

/** A processed row: the submission it created, or the sentences that kept it from being created. */
export const bulkSendRows = sqliteTable(
  'bulk_send_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    bulkSendId: integer('bulk_send_id').notNull(),
    row: integer('row').notNull(),
    status: text('status').$type<BulkRowStatus>().notNull(),
    submissionId: integer('submission_id'),
    errors: text('errors', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    // One outcome per row: a chunk stored twice would fail here even if its claim did not stop it.
    uniqueIndex('bulk_send_rows_row').on(t.bulkSendId, t.row),
    index('bulk_send_rows_status').on(t.bulkSendId, t.status, t.id),
  ],
);

export type BulkSend = typeof bulkSends.$inferSelect;
export type BulkSendRow = typeof bulkSendRows.$inferSelect;
