// Files signers upload into `file` fields on the signing page (POST /s/:slug/attachments): one row per
// object in R2, so an account's storage can be summed in D1 and uploads no form kept can be found.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import { submissions, submitters } from './submissions';

export const signingUploads = sqliteTable(
  'signing_uploads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    submitterId: integer('submitter_id')
      .notNull()
      .references(() => submitters.id),
    /** What the field's value names: `attachment:<uuid>`. */
    uuid: text('uuid').notNull(),
    /** Key of the file in the FILES bucket (src/services/submissions/file-keys.ts). */
    r2Key: text('r2_key').notNull(),
    byteSize: integer('byte_size').notNull(),
    /**
     * Set by the cleanup once a completed form names the upload: kept for good, never looked at again,
     * so the cleanup's scan covers only uploads whose fate is still open.
     */
    keptAt: text('kept_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('signing_uploads_uuid').on(t.uuid),
    // Covering index of the storage sum (src/db/queries/storage.ts): read without touching the table.
    index('signing_uploads_account_bytes').on(t.accountId, t.byteSize),
    // The cleanup walks open uploads oldest first (src/scheduled/upload-cleanup.ts).
    index('signing_uploads_open')
      .on(t.createdAt)
      .where(sql`${t.keptAt} IS NULL`),
    index('signing_uploads_submission').on(t.submissionId),
  ],
);

export type SigningUpload = typeof signingUploads.$inferSelect;
export type NewSigningUpload = typeof signingUploads.$inferInsert;
