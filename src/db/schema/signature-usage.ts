// Each completed signature's level and price, per account (issue 18 › 6: usage for billing). Tenant
// shard; one row per submitter, written in the same batch that completes the submitter.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SignatureLevel } from './accounts';
import { submissions, submitters } from './submissions';

export const signatureUsage = sqliteTable(
  'signature_usage',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** Null once the submission was deleted permanently: the signature was made and stays billed. */
    submissionId: integer('submission_id').references(() => submissions.id),
    submitterId: integer('submitter_id').references(() => submitters.id),
    level: text('level').$type<SignatureLevel>().notNull(),
    /** The price at the time of signing, in US cents (ses 0, aes 20, qes 200). */
    costCents: integer('cost_cents').notNull(),
    /** `YYYY-MM` (UTC) of `signedAt`: the list's month filter reads one index range. */
    month: text('month').notNull(),
    signedAt: text('signed_at').notNull(),
  },
  (t) => [
    uniqueIndex('signature_usage_submitter').on(t.submitterId),
    index('signature_usage_account_month').on(t.accountId, t.month, t.id),
  ],
);

export type SignatureUsage = typeof signatureUsage.$inferSelect;
