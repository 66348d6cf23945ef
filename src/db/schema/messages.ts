// Outbound email and SMS. Every message is a row first (written with the change that caused it), then
// delivered off the request path by the messages queue; in development the row itself is the inbox.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** email | sms | whatsapp */
    channel: text('channel').notNull(),
    /** invitation | reminder | expiry | completion | verification_code | … */
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    /** queued → sent, or failed after the last attempt. */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** outbox | cloudflare | twilio: which transport delivered (or last tried) it. */
    transport: text('transport'),
    providerId: text('provider_id'),
    error: text('error'),
    /** What the message is about, for lookups and the audit trail (e.g. submitter id). */
    submissionId: integer('submission_id'),
    submitterId: integer('submitter_id'),
    /** When the current attempt started; a row stuck in `sending` past a timeout is queued again. */
    claimedAt: text('claimed_at'),
    createdAt: text('created_at').notNull().default(now),
    sentAt: text('sent_at'),
  },
  (t) => [
    index('messages_account').on(t.accountId, t.id),
    index('messages_status').on(t.status, t.id),
    // Retention (src/scheduled/retention.ts) deletes the oldest finished rows first.
    index('messages_created').on(t.createdAt),
  ],
);

export type Message = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;
