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
    /** In the currency's minor unit (cents): what the latest session was prepared for; once paid, what Stripe charged (they must be equal). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    description: text('description'),
    /** The latest Stripe Checkout Session started for it: the only one whose payment counts. */
    checkoutSessionId: text('checkout_session_id'),
    /** Stripe's payment reference once paid (the PaymentIntent id): the field's value. */
    reference: text('reference'),
    /** Why the last attempt failed, in Stripe's words or ours, for the signing page. */
    failureMessage: text('failure_message'),
    paidAt: text('paid_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('payments_submitter_field').on(t.submitterId, t.fieldUuid), index('payments_submission').on(t.submissionId)],
);

export type Payment = typeof payments.$inferSelect;

export const PAYMENT_SUBSCRIPTION_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PaymentSubscriptionInterval = (typeof PAYMENT_SUBSCRIPTION_INTERVALS)[number];

/**
 * scheduled (waiting for its signer, or for a retry of the start) → Stripe's own status once started
 * (incomplete, trialing, active, past_due) → canceled; `failed` when it could not be started after
 * every retry (start-subscriptions.ts).
 */
export type PaymentSubscriptionStatus = 'scheduled' | 'incomplete' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'failed';

/**
 * Recurring payments linked to a submission (`POST /api/payments/subscribe`; docs/payments.md › Recurring
 * payments). Tenant shard: at most one per submission (the unique index settles two calls racing), started
 * with the account's own Stripe key once its submitter completes.
 */
export const paymentSubscriptions = sqliteTable(
  'payment_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    /** The signer whose completion starts it. */
    submitterId: integer('submitter_id')
      .notNull()
      .references(() => submitters.id),
    status: text('status').$type<PaymentSubscriptionStatus>().notNull().default('scheduled'),
    /** Per interval, in the currency's minor unit (cents). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    interval: text('interval').$type<PaymentSubscriptionInterval>().notNull(),
    trialDays: integer('trial_days'),
    description: text('description'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Failed attempts to start it, the last one's reason, and when the cron tries again. */
    startAttempts: integer('start_attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    startedAt: text('started_at'),
    canceledAt: text('canceled_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('payment_subscriptions_submission').on(t.submissionId),
    index('payment_subscriptions_status').on(t.status, t.nextAttemptAt),
  ],
);

export type PaymentSubscription = typeof paymentSubscriptions.$inferSelect;

/**
 * Stripe invoices of recurring payments already applied, one row per invoice and outcome: a redelivered
 * invoice.paid fires payment.succeeded once, while a failed invoice that is paid later fires both.
 */
export const paymentSubscriptionInvoices = sqliteTable(
  'payment_subscription_invoices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    stripeInvoiceId: text('stripe_invoice_id').notNull(),
    outcome: text('outcome').$type<'paid' | 'failed'>().notNull(),
    paymentSubscriptionId: integer('payment_subscription_id')
      .notNull()
      .references(() => paymentSubscriptions.id),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('payment_subscription_invoices_outcome').on(t.stripeInvoiceId, t.outcome),
    index('payment_subscription_invoices_subscription').on(t.paymentSubscriptionId),
  ],
);
