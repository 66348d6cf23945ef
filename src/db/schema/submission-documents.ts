// The sealed documents of a completed submission: one per template document the submission froze, each
// a PDF in R2 with the values stamped, the audit trail appended and the account's signature.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import { submissions } from './submissions';
import { templateDocuments } from './templates';

export const submissionDocuments = sqliteTable(
  'submission_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    /** The template document this was sealed from; the API addresses the sealed file by this id. */
    templateDocumentId: integer('template_document_id')
      .notNull()
      .references(() => templateDocuments.id),
    filename: text('filename').notNull(),
    /** Key of the sealed PDF in the FILES bucket; unique per sealing attempt. */
    r2Key: text('r2_key').notNull(),
    /** SHA-256 of the sealed file: what POST /api/tools/verify matches an upload against. */
    sha256: text('sha256').notNull(),
    /** SHA-256 of the document as uploaded to the template (printed on the audit page). */
    originalSha256: text('original_sha256').notNull(),
    byteSize: integer('byte_size').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    // One sealed file per template document: a second sealing run finds the row and skips the document.
    uniqueIndex('submission_documents_document').on(t.submissionId, t.templateDocumentId),
    index('submission_documents_account_sha256').on(t.accountId, t.sha256),
    // Covering index of the account's storage sum (src/db/queries/storage.ts).
    index('submission_documents_account_bytes').on(t.accountId, t.byteSize),
  ],
);

export type SubmissionDocument = typeof submissionDocuments.$inferSelect;
export type NewSubmissionDocument = typeof submissionDocuments.$inferInsert;
