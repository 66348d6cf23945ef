// Recurring payments linked to a submission (spec › Other endpoints `POST /api/payments/subscribe`;
// docs/payments.md › Recurring payments): creating one, starting it in the account's Stripe once its
// signer completes (retried by the cron), and Stripe's webhooks driving payment.* events.
import type { BatchStatement, Db } from '../../db/client';
import {
  getPaymentSubscription,
  insertPaymentSubscription,
  markStartedStatement,
  paymentSubscriptionOfSubmission,
  paymentSubscriptionsDueToStart,
  recordInvoiceStatement,
  recordStartFailureStatement,
  setStatusStatement,
} from '../../db/queries/payment-subscriptions';
import { findSubmission, findSubmissionById } from '../../db/queries/submissions';
import { getAccount } from '../../db/queries/accounts';
import type { ShardScope } from '../../db/shards';
import type { Account, PaymentSubscription, PaymentSubscriptionInterval, PaymentSubscriptionStatus } from '../../db/schema';
import { ApiError, notFound, unprocessable } from '../../lib/errors';
import type { EventName } from '../../lib/events';
import type { StripeEvent } from '../billing/stripe-events';
import { PaymentProcessorError } from '../billing/stripe-checkout';
import { outboxInsert } from '../events/outbox';
import { ChangeSet } from '../submissions/change-set';
import { isActive } from '../submissions/signing-order';
import { loadScope, submissionRef, templateRef, type SubmissionScope } from '../submissions/submission-scope';
import { paymentEventData } from '../webhooks/payment-payloads';
import { accountStripeCredentials } from './account-stripe';
import { currencyExponent, isCurrencyCode, toMinorUnits } from './payment-field';
import { createRecurringPayment } from './stripe-payments';

export type SubscribeInput = {
  submissionId: number;
  submitterId?: number;
  /** A decimal in the currency's major unit, like payment fields' `amount` (12.50 EUR). */
  price: number | string;
  currency: string;
  interval: PaymentSubscriptionInterval;
  trialDays?: number;
  description?: string;
};

/** The price as Stripe charges it (minor units), or 422 saying what a chargeable price looks like. */
function minorUnitsOf(price: number | string, currency: string): number {
  if (!isCurrencyCode(currency))
    throw unprocessable(`currency ${JSON.stringify(currency)} is not an ISO 4217 currency code; use one such as USD or EUR (upper case).`);
  const value = typeof price === 'number' ? price : /^\d+(\.\d+)?$/.test(price.trim()) ? Number(price) : NaN;
  const amount = Number.isFinite(value) ? toMinorUnits(value, currency) : null;
  if (amount === null) {
    const exponent = currencyExponent(currency);
    throw unprocessable(
      `price must be a ${currency} amount above 0 with at most ${exponent} decimal${exponent === 1 ? '' : 's'}, such as ${(12.5).toFixed(exponent)}.`,
    );
  }
  return amount;
}

/**
 * Links a recurring payment to a submission: refused (422) unless the submission is pending, the account
 * has Stripe credentials and the submitter (default: the last signer) has yet to complete; 409 when the
 * submission already has one — two calls racing get one recurring payment and one 409.
 */
export async function subscribe(
  encryptionKey: string | undefined,
  db: Db,
  account: Account,
  input: SubscribeInput,
): Promise<PaymentSubscription> {
  const amount = minorUnitsOf(input.price, input.currency);
  const submission = await findSubmission(db, account.id, input.submissionId);
  if (!submission) throw notFound('Submission');
  if (submission.status !== 'pending')
    throw unprocessable(
      `Submission ${submission.id} is ${submission.status}; a recurring payment can only be linked to a pending submission.`,
    );
  if (!(await accountStripeCredentials(encryptionKey, account)))
    throw unprocessable('Payments are not set up: store the account’s Stripe keys with PUT /api/settings/payments first.');
  const scope = await loadScope(db, submission);
  const submitter = input.submitterId === undefined ? scope.submitters.at(-1) : scope.submitters.find((s) => s.id === input.submitterId);
  if (!submitter) throw unprocessable(`submitter_id ${input.submitterId} is not a submitter of submission ${submission.id}.`);
  if (!isActive(submitter)) {
    throw unprocessable(
      `Submitter ${submitter.id} has already ${submitter.status === 'completed' ? 'completed' : `been ${submitter.status}`}; choose a signer who has yet to complete.`,
    );
  }
  const row = await insertPaymentSubscription(db, {
    accountId: account.id,
    submissionId: submission.id,
    submitterId: submitter.id,
    amount,
    currency: input.currency,
    interval: input.interval,
    trialDays: input.trialDays ?? null,
    description: input.description ?? null,
  });
  if (!row) {
    const existing = await paymentSubscriptionOfSubmission(db, submission.id);
    throw new ApiError(
      409,
      `Submission ${submission.id} already has a recurring payment (id ${existing?.id}); read it with GET /api/payments/subscriptions/${existing?.id}.`,
    );
  }
  return row;
}

export async function readPaymentSubscription(db: Db, accountId: number, id: number): Promise<PaymentSubscription> {
  const row = await getPaymentSubscription(db, accountId, id);
  if (!row) throw notFound('Recurring payment');
  return row;
}

/** The outbox row of a recurring payment's payment.* event. */
function recurringPaymentEvent(
  db: Db,
  scope: SubmissionScope,
  row: PaymentSubscription,
  event: EventName,
  now: { status: string; invoice?: string | null; failure?: string | null; reference?: string | null },
): BatchStatement {
  const submitter = scope.submitters.find((s) => s.id === row.submitterId);
  return outboxInsert(db, {
    accountId: row.accountId,
    event,
    data: paymentEventData({
      payment: {
        id: row.id,
        kind: 'subscription',
        status: now.status,
        amount: row.amount,
        currency: row.currency,
        description: row.description,
        reference: now.reference !== undefined ? now.reference : row.stripeSubscriptionId,
        invoice: now.invoice ?? null,
        failure_message: now.failure ?? null,
        field: null,
        interval: row.interval,
        trial_days: row.trialDays,
      },
      submission: submissionRef(scope.submission, scope.template),
      submitter: submitter
        ? { id: submitter.id, uuid: submitter.uuid, email: submitter.email ?? '', name: submitter.name ?? '', role: submitter.role }
        : null,
      template: templateRef(scope.template),
    }),
  });
}

class Unchanged extends Error {}

/** Commits a guarded change with what goes with it; false when the guard found the row already changed. */
async function commitGuarded(db: Db, guarded: BatchStatement, ...rest: BatchStatement[]): Promise<boolean> {
  try {
    await new ChangeSet(db)
      .guarded(guarded)
      .add(...rest)
      .commit(undefined, () => new Unchanged());
    return true;
  } catch (error) {
    if (error instanceof Unchanged) return false;
    throw error;
  }
}

// ——— Starting, from the cron (src/scheduled/index.ts) ———

/** Attempts before a recurring payment that cannot be started is marked failed (about 2 days with the backoff below). */
export const MAX_START_ATTEMPTS = 10;
/** Recurring payments one cron run starts per shard: each is 3 Stripe calls. */
export const START_BATCH = 10;

const STRIPE_STATUSES = new Set<PaymentSubscriptionStatus>(['incomplete', 'trialing', 'active', 'past_due']);

/** Minutes before attempt n + 1: 1, 2, 4 … capped at 8 hours. */
export function retryDelayMinutes(attempts: number): number {
  return Math.min(2 ** (attempts - 1), 480);
}

export type StartEnv = { ENCRYPTION_KEY?: string; STRIPE_API_BASE?: string };

/**
 * Starts one due recurring payment: the Stripe subscription, then `scheduled` → Stripe's status with
 * payment.created in one guarded batch. A failure is counted and retried later; it never touches the
 * submission. Returns what happened.
 */
export async function startPaymentSubscription(
  env: StartEnv,
  db: Db,
  control: Db,
  row: PaymentSubscription,
  now = Date.now(),
): Promise<'started' | 'retry' | 'failed' | 'unchanged'> {
  const [account, submission] = await Promise.all([getAccount(control, row.accountId), findSubmissionById(db, row.submissionId)]);
  if (!account || !submission) return 'unchanged';
  const scope = await loadScope(db, submission);
  const submitter = scope.submitters.find((s) => s.id === row.submitterId);
  let error: string;
  try {
    const credentials = await accountStripeCredentials(env.ENCRYPTION_KEY, account);
    if (!credentials) throw new PaymentProcessorError('Payments are not set up: the account has no Stripe keys.');
    const started = await createRecurringPayment(
      { secretKey: credentials.secretKey, apiBase: env.STRIPE_API_BASE || 'https://api.stripe.com' },
      {
        paymentSubscriptionId: row.id,
        accountId: row.accountId,
        amount: row.amount,
        currency: row.currency,
        interval: row.interval,
        trialDays: row.trialDays,
        name: row.description || scope.template.name || `Submission ${submission.id}`,
        description: row.description,
        email: submitter?.email ?? null,
        customerName: submitter?.name ?? null,
      },
    );
    const status: PaymentSubscriptionStatus = STRIPE_STATUSES.has(started.status as PaymentSubscriptionStatus)
      ? (started.status as PaymentSubscriptionStatus)
      : 'incomplete';
    const changed = await commitGuarded(
      db,
      markStartedStatement(db, row.id, { status, customerId: started.customerId, subscriptionId: started.subscriptionId }),
      recurringPaymentEvent(db, scope, row, 'payment.created', { status, reference: started.subscriptionId }),
    );
    return changed ? 'started' : 'unchanged';
  } catch (err) {
    if (!(err instanceof PaymentProcessorError)) throw err;
    error = err.detail ? `${err.message} (${err.detail})` : err.message;
  }
  const attempts = row.startAttempts + 1;
  if (attempts >= MAX_START_ATTEMPTS) {
    const changed = await commitGuarded(
      db,
      recordStartFailureStatement(db, row.id, attempts, error, null),
      recurringPaymentEvent(db, scope, row, 'payment.failed', { status: 'failed', failure: `It could not be started: ${error}` }),
    );
    return changed ? 'failed' : 'unchanged';
  }
  const next = new Date(now + retryDelayMinutes(attempts) * 60_000).toISOString();
  await commitGuarded(db, recordStartFailureStatement(db, row.id, attempts, error, next));
  return 'retry';
}

/** The cron step: starts the recurring payments whose signer has completed; one failing never stops the others. */
export async function startDuePaymentSubscriptions(scope: ShardScope, now: number): Promise<number> {
  const due = await paymentSubscriptionsDueToStart(scope.db, new Date(now).toISOString(), START_BATCH);
  let started = 0;
  for (const row of due) {
    try {
      if ((await startPaymentSubscription(scope.env, scope.db, scope.control, row, now)) === 'started') started += 1;
    } catch (error) {
      console.error(`recurring payment ${row.id} could not be started:`, error);
    }
  }
  return started;
}

// ——— Stripe's webhooks (POST /api/payments/webhook/{account_id}) ———

type StripeObject = {
  id?: unknown;
  subscription?: unknown;
  metadata?: { payment_subscription_id?: unknown };
  subscription_details?: { metadata?: { payment_subscription_id?: unknown } };
  parent?: { subscription_details?: { metadata?: { payment_subscription_id?: unknown } } };
  last_finalization_error?: { message?: unknown };
};

function paymentSubscriptionIdOf(object: StripeObject): number | null {
  const raw =
    object.metadata?.payment_subscription_id ??
    object.subscription_details?.metadata?.payment_subscription_id ??
    object.parent?.subscription_details?.metadata?.payment_subscription_id;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const RECURRING_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed', 'customer.subscription.deleted']);

export function isRecurringPaymentEvent(event: StripeEvent): boolean {
  return RECURRING_EVENTS.has(event.type) && paymentSubscriptionIdOf(event.data.object as StripeObject) !== null;
}

/**
 * invoice.paid → active, payment.succeeded; invoice.payment_failed → past_due, payment.failed (each once
 * per invoice, whatever Stripe redelivers); customer.subscription.deleted → canceled, payment.canceled once.
 */
export async function applyRecurringPaymentEvent(
  db: Db,
  accountId: number,
  event: StripeEvent,
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const object = event.data.object as StripeObject;
  const id = paymentSubscriptionIdOf(object);
  const row = id === null ? undefined : await getPaymentSubscription(db, accountId, id);
  // Only a started one: its Stripe subscription must be the one the event is about.
  if (!row || !row.stripeSubscriptionId) return 'ignored';
  const about = event.type === 'customer.subscription.deleted' ? object.id : object.subscription;
  if (typeof about === 'string' && about !== row.stripeSubscriptionId) return 'ignored';
  const submission = await findSubmissionById(db, row.submissionId);
  if (!submission) return 'ignored';
  const scope = await loadScope(db, submission);
  const invoice = typeof object.id === 'string' ? object.id : '';
  let changed: boolean;
  switch (event.type) {
    case 'invoice.paid':
      changed = await commitGuarded(
        db,
        recordInvoiceStatement(db, { accountId, paymentSubscriptionId: row.id, stripeInvoiceId: invoice, outcome: 'paid' }),
        setStatusStatement(db, accountId, row.id, 'active'),
        recurringPaymentEvent(db, scope, row, 'payment.succeeded', { status: row.status === 'canceled' ? 'canceled' : 'active', invoice }),
      );
      break;
    case 'invoice.payment_failed':
      changed = await commitGuarded(
        db,
        recordInvoiceStatement(db, { accountId, paymentSubscriptionId: row.id, stripeInvoiceId: invoice, outcome: 'failed' }),
        setStatusStatement(db, accountId, row.id, 'past_due'),
        recurringPaymentEvent(db, scope, row, 'payment.failed', {
          status: row.status === 'canceled' ? 'canceled' : 'past_due',
          invoice,
          failure: 'The invoice was not paid.',
        }),
      );
      break;
    default:
      changed = await commitGuarded(
        db,
        setStatusStatement(db, accountId, row.id, 'canceled'),
        recurringPaymentEvent(db, scope, row, 'payment.canceled', { status: 'canceled' }),
      );
  }
  return changed ? 'applied' : 'unchanged';
}

/** The API's shape (PaymentSubscription in the OpenAPI document). */
export function serializePaymentSubscription(row: PaymentSubscription) {
  const exponent = currencyExponent(row.currency);
  return {
    id: row.id,
    submission_id: row.submissionId,
    submitter_id: row.submitterId,
    status: row.status,
    price: (row.amount / 10 ** exponent).toFixed(exponent),
    amount: row.amount,
    currency: row.currency,
    interval: row.interval,
    trial_days: row.trialDays,
    description: row.description,
    stripe_subscription_id: row.stripeSubscriptionId,
    start_attempts: row.startAttempts,
    last_error: row.lastError,
    next_attempt_at: row.nextAttemptAt,
    started_at: row.startedAt,
    canceled_at: row.canceledAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
