// Payments signers make through payment fields, with the account's own Stripe keys (spec › Template
// field type `payment`; docs/payments.md). Tenant shard: one row per submitter and payment field,
// reused when the signer tries again after a refused or abandoned payment.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import { submissions, submitters } from './submissions';

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    submitterId: integer('submitter_id')
      .notNull()
      .references(() => submitters.id),
    fieldUuid: text('field_uuid').notNull(),
    /** pending (checkout started) → paid, or failed (refused or abandoned; a new checkout makes it pending again). */
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    /** In the currency's minor unit (cents), as charged. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    description: text('description'),
    /** The latest Stripe Checkout Session started for it. */
    checkoutSessionId: text('checkout_session_id'),
    /** Stripe's payment reference once paid (the PaymentIntent id): the field's value. */
    reference: text('reference'),
    /** Why the last attempt failed, in Stripe's words or ours, for the signing page. */
    failureMessage: text('failure_message'),
    paidAt: text('paid_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('payments_submitter_field').on(t.submitterId, t.fieldUuid),
    index('payments_submission').on(t.submissionId),
  ],
);

export type Payment = typeof payments.$inferSelect;
