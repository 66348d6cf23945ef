// Email and phone verification of signers (spec › Template preferences › require_email_2fa;
// require_phone_2fa): the code sent, the channel it went by, its attempts, and the browser session a
// correct code opens. Codes and session tokens are stored hashed.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import { submitters } from './submissions';

export const signingVerifications = sqliteTable(
  'signing_verifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submitterId: integer('submitter_id')
      .notNull()
      .references(() => submitters.id),
    /** SHA-256 of the submitter id and the 6-digit code (a code alone has only 10^6 values). */
    codeHash: text('code_hash').notNull(),
    /** email | sms | whatsapp: where the code went; a session proves that channel's factor only. */
    channel: text('channel').notNull().default('email'),
    expiresAt: text('expires_at').notNull(),
    /** Codes checked against this row (taken before each comparison); at the limit a new code must be sent. */
    attempts: integer('attempts').notNull().default(0),
    verifiedAt: text('verified_at'),
    /** SHA-256 of the session cookie handed to the browser that entered the right code. */
    sessionHash: text('session_hash'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('signing_verifications_submitter').on(t.submitterId, t.id)],
);

export type SigningVerification = typeof signingVerifications.$inferSelect;
