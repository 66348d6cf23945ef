// Payment fields on the signing page (spec › Template field type `payment`; docs/payments.md): starting a
// Stripe Checkout with the account's key, applying Stripe's webhooks to the payment row, and the
// completion rule — a signer cannot complete until every payment field of theirs is paid, for the amount
// it comes to now. A payment is what was charged: it counts only when Stripe reports the session prepared
// last, with the amount and currency it was prepared for (docs/payments.md › What counts as paid).
import type { BatchStatement, Db } from '../../db/client';
import type { Payment, TemplateField } from '../../db/schema';
import {
  checkoutStartedStatement,
  getPayment,
  markFailedStatement,
  markPaidStatement,
  paymentsOfSubmitter,
  preparePayment,
  type Charge,
} from '../../db/queries/payments';
import { findSubmissionById } from '../../db/queries/submissions';
import type { EventName } from '../../lib/events';
import { signerRefusal } from '../../lib/errors';
import { outboxInsert } from '../events/outbox';
import { ChangeSet } from '../submissions/change-set';
import { loadScope, submissionRef, templateRef, type SubmissionScope } from '../submissions/submission-scope';
import { paymentEventData } from '../webhooks/payment-payloads';
import { type Signing, resolvedValues, signerFields } from './signing-session';
import type { StripeEvent } from '../billing/stripe-events';
import { PaymentProcessorError } from '../billing/stripe-checkout';
import { accountStripeCredentials } from '../payments/account-stripe';
import { formatAmount, toMinorUnits } from '../payments/payment-field';
import { createPaymentCheckout, expireCheckoutSession } from '../payments/stripe-payments';

/** What the field charges now, in minor units: its fixed amount, or its formula over the signer's values. */
export function fieldAmount(signing: Pick<Signing, 'scope' | 'submitter'>, field: TemplateField): { amount: number; currency: string } {
  const prefs = field.preferences as { amount?: number | string; currency?: string };
  const currency = String(prefs.currency ?? '');
  const major = field.formula ? Number(resolvedValues(signing, signing.submitter.values).values[field.uuid]) : Number(prefs.amount);
  const amount = Number.isFinite(major) ? toMinorUnits(Math.round(major * 1e6) / 1e6, currency) : null;
  if (amount === null) {
    throw signerRefusal(
      `"${field.name}" has no amount to pay yet: fill in the fields it is computed from with numbers that give an amount above 0.`,
      'signer_error.payment_no_amount',
      { name: field.name },
    );
  }
  return { amount, currency };
}

function paymentFieldOf(signing: Signing, fieldUuid: string): TemplateField {
  const field = signerFields(signing).find((f) => f.uuid === fieldUuid && f.type === 'payment');
  if (!field) throw signerRefusal(`${fieldUuid} is not one of your payment fields.`, 'signer_error.not_your_field', { field: fieldUuid });
  return field;
}

export type CheckoutEnv = { ENCRYPTION_KEY?: string; STRIPE_API_BASE?: string };

/**
 * Starts a Stripe Checkout (mode payment) for one of the signer's payment fields and returns its URL.
 * Refuses a field already paid, and an account without Stripe credentials.
 */
export async function startFieldCheckout(env: CheckoutEnv, db: Db, signing: Signing, fieldUuid: string, pageUrl: string): Promise<string> {
  const field = paymentFieldOf(signing, fieldUuid);
  const credentials = await accountStripeCredentials(env.ENCRYPTION_KEY, signing.account);
  if (!credentials)
    throw signerRefusal('Payments are not set up for this form yet; contact the sender.', 'signer_error.payment_not_set_up');
  const { amount, currency } = fieldAmount(signing, field);
  const description = typeof field.preferences.description === 'string' ? field.preferences.description : null;
  const payment = await preparePayment(db, {
    accountId: signing.account.id,
    submissionId: signing.scope.submission.id,
    submitterId: signing.submitter.id,
    fieldUuid,
    amount,
    currency,
    description,
  });
  const alreadyPaid = () => signerRefusal(`"${field.name}" is already paid.`, 'signer_error.payment_already_paid', { name: field.name });
  // A paid payment stays paid while it is the amount due; once the amount changed (a formula's inputs),
  // the signer pays the new amount in a new checkout.
  if (isPaidFor(payment, { amount, currency })) throw alreadyPaid();
  const stripe = { secretKey: credentials.secretKey, apiBase: env.STRIPE_API_BASE || 'https://api.stripe.com' };
  const session = await createPaymentCheckout(stripe, {
    paymentId: payment.id,
    accountId: signing.account.id,
    amount,
    currency,
    name: field.name,
    description,
    customerEmail: signing.submitter.email,
    successUrl: `${pageUrl}?payment=success`,
    cancelUrl: `${pageUrl}?payment=cancelled`,
  });
  if (!session.url)
    throw signerRefusal('The payment processor did not return a checkout page; try again.', 'signer_error.payment_no_checkout');
  // The session and the amount it was prepared for are stored together: only this session, for this
  // amount, can mark the field paid. payment.created: a checkout was started (each attempt fires again,
  // same payment id). The row was paid for this amount meanwhile: the new session is left to expire.
  const started = { ...payment, amount, currency, description, checkoutSessionId: session.id };
  await new ChangeSet(db)
    .guarded(checkoutStartedStatement(db, payment.id, { sessionId: session.id, amount, currency, description }))
    .add(fieldPaymentEvent(db, signing.scope, started, 'payment.created', { status: 'pending', reference: session.id, failure: null }))
    .commit(undefined, alreadyPaid);
  // The session this one replaces would no longer count if paid: close it at Stripe, so the signer
  // cannot pay it (say, from the browser's history). Best effort — the rule above is what protects.
  if (payment.checkoutSessionId && payment.status !== 'paid') {
    await expireCheckoutSession(stripe, payment.checkoutSessionId).catch((err: unknown) =>
      console.warn(
        `payment checkout: session ${payment.checkoutSessionId} was not expired: ${err instanceof PaymentProcessorError ? (err.detail ?? err.message) : String(err)}`,
      ),
    );
  }
  return session.url;
}

/** Whether the payment is paid, for exactly this amount and currency. */
function isPaidFor(payment: Payment, due: { amount: number; currency: string }): boolean {
  return payment.status === 'paid' && payment.reference !== null && payment.amount === due.amount && payment.currency === due.currency;
}

/** The outbox row of a payment field's payment.* event, with the payment as the change leaves it. */
function fieldPaymentEvent(
  db: Db,
  scope: SubmissionScope,
  payment: Payment,
  event: EventName,
  now: { status: string; reference: string | null; failure: string | null; charged?: Charge },
) {
  const submitter = scope.submitters.find((s) => s.id === payment.submitterId);
  const field = scope.template.fields.find((f) => f.uuid === payment.fieldUuid);
  return outboxInsert(db, {
    accountId: payment.accountId,
    event,
    data: paymentEventData({
      payment: {
        id: payment.id,
        kind: 'field',
        status: now.status,
        // What Stripe charged, once it has: the same as the row's amount, which it had to equal to count.
        amount: now.charged?.amount ?? payment.amount,
        currency: now.charged?.currency ?? payment.currency,
        description: payment.description,
        reference: now.reference,
        invoice: null,
        failure_message: now.failure,
        field: { uuid: payment.fieldUuid, name: field?.name ?? '' },
        interval: null,
        trial_days: null,
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

/** Runs a guarded status change with its event; false when the payment had already left the state it changes from. */
async function changeWithEvent(db: Db, change: BatchStatement, event: BatchStatement): Promise<boolean> {
  try {
    await new ChangeSet(db)
      .guarded(change)
      .add(event)
      .commit(undefined, () => new Unchanged());
    return true;
  } catch (error) {
    if (error instanceof Unchanged) return false;
    throw error;
  }
}

/**
 * What counts for a payment field (stripe.com/docs/checkout/fulfill-orders): the Checkout Session's own
 * events, which name the session and what it charged. payment_intent.succeeded names no session, so it
 * counts for nothing; its failure only shows the signer why their card was refused.
 */
const FIELD_PAYMENT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.payment_failed',
]);

/** `not_counted`: a payment of a session other than the one prepared last, or for another amount or currency. */
export type PaymentEventOutcome = 'applied' | 'unchanged' | 'ignored' | 'not_counted';

type StripeObject = {
  id?: unknown;
  metadata?: { payment_id?: unknown };
  payment_status?: unknown;
  payment_intent?: unknown;
  /** Checkout Session: what it charged, in minor units. */
  amount_total?: unknown;
  /** PaymentIntent: what it is for, in minor units. */
  amount?: unknown;
  currency?: unknown;
  last_payment_error?: { message?: unknown };
};

/** Stripe's amount and currency on an object (currency lower case there, upper case here), or null. */
function chargeOf(object: StripeObject, amountKey: 'amount_total' | 'amount'): { amount: number; currency: string } | null {
  const amount = object[amountKey];
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || typeof object.currency !== 'string') return null;
  return { amount, currency: object.currency.toUpperCase() };
}

/** Whether Stripe's session is the one prepared last for the payment, and charged what it was prepared for. */
function isPreparedCharge(payment: Payment, charged: Charge): boolean {
  return charged.sessionId === payment.checkoutSessionId && charged.amount === payment.amount && charged.currency === payment.currency;
}

/**
 * Applies one verified Stripe event of the account to its payment row. Paid wins: a failure arriving
 * after the success (Stripe does not deliver in order) changes nothing, and so does a redelivery. A
 * session that is not the one prepared last, or that charged another amount or currency, is not counted
 * (the row and the events stay as they were; the account refunds that charge in Stripe).
 */
export async function applyPaymentEvent(
  db: Db,
  accountId: number,
  event: StripeEvent,
): Promise<{ outcome: PaymentEventOutcome; payment?: Payment }> {
  if (!FIELD_PAYMENT_EVENTS.has(event.type)) return { outcome: 'ignored' };
  const object = event.data.object as StripeObject;
  const paymentId = Number(object.metadata?.payment_id);
  if (!Number.isSafeInteger(paymentId) || paymentId <= 0) return { outcome: 'ignored' };
  const payment = await getPayment(db, accountId, paymentId);
  if (!payment) return { outcome: 'ignored' };
  const submission = await findSubmissionById(db, payment.submissionId);
  if (!submission) return { outcome: 'ignored' };
  const scope = await loadScope(db, submission);
  const sessionId = String(object.id);
  const failed = (message: string, name: 'payment.failed' | 'payment.canceled', about: Parameters<typeof markFailedStatement>[4]) =>
    changeWithEvent(
      db,
      markFailedStatement(db, accountId, paymentId, message, about),
      fieldPaymentEvent(db, scope, payment, name, {
        status: name === 'payment.failed' ? 'failed' : 'canceled',
        reference: payment.checkoutSessionId,
        failure: message,
      }),
    );
  let changed: boolean;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (object.payment_status !== 'paid') return { outcome: 'unchanged', payment };
      const charge = chargeOf(object, 'amount_total');
      const charged = charge ? { ...charge, sessionId } : null;
      if (!charged || !isPreparedCharge(payment, charged)) {
        console.warn(
          `payments webhook: account ${accountId} payment ${paymentId}: session ${sessionId} is not the checkout prepared for ${payment.amount} ${payment.currency}; not counted`,
        );
        return { outcome: 'not_counted', payment };
      }
      const reference = typeof object.payment_intent === 'string' ? object.payment_intent : sessionId;
      changed = await changeWithEvent(
        db,
        markPaidStatement(db, accountId, paymentId, charged, reference),
        fieldPaymentEvent(db, scope, payment, 'payment.succeeded', { status: 'paid', reference, failure: null, charged }),
      );
      if (!changed && (await getPayment(db, accountId, paymentId))?.status !== 'paid') return { outcome: 'not_counted', payment };
      break;
    }
    case 'payment_intent.payment_failed': {
      const about = chargeOf(object, 'amount');
      if (!about) return { outcome: 'ignored' };
      changed = await failed(
        typeof object.last_payment_error?.message === 'string' ? object.last_payment_error.message : 'The payment was refused.',
        'payment.failed',
        about,
      );
      break;
    }
    case 'checkout.session.async_payment_failed':
      changed = await failed('The payment was refused.', 'payment.failed', { sessionId });
      break;
    case 'checkout.session.expired':
      // Abandoned: the signer left Stripe's page and the session ran out (payment.canceled).
      changed = await failed('The payment was not finished in time.', 'payment.canceled', { sessionId });
      break;
    default:
      return { outcome: 'ignored' };
  }
  return { outcome: changed ? 'applied' : 'unchanged', payment: (await getPayment(db, accountId, paymentId)) ?? payment };
}

/** What the field comes to now, or null while its formula computes no amount. */
function amountDue(signing: Pick<Signing, 'scope' | 'submitter'>, field: TemplateField): { amount: number; currency: string } | null {
  try {
    return fieldAmount(signing, field);
  } catch {
    return null;
  }
}

/** "was paid with 80.00 USD, but it now comes to 800.00 USD" — a paid payment whose amount changed since. */
function changedSince(payment: Payment, due: { amount: number; currency: string } | null): string {
  return `was paid with ${formatAmount(payment.amount, payment.currency)}, but it now comes to ${due ? formatAmount(due.amount, due.currency) : 'no amount'}`;
}

/**
 * The completion rule: every payment field of the signer must be paid, for the amount it comes to over
 * the values being submitted (a formula's inputs changed after paying need a new checkout). Returns the
 * values to store for them (the payment reference), or throws 422 naming the first field to pay.
 */
export async function paidFieldValues(db: Db, signing: Signing, hidden: ReadonlySet<string> = new Set()): Promise<Record<string, string>> {
  const fields = signerFields(signing).filter((f) => f.type === 'payment' && !hidden.has(f.uuid));
  if (fields.length === 0) return {};
  const rows = new Map((await paymentsOfSubmitter(db, signing.submitter.id)).map((p) => [p.fieldUuid, p]));
  const values: Record<string, string> = {};
  for (const field of fields) {
    const row = rows.get(field.uuid);
    const due = amountDue(signing, field);
    if (row && due && isPaidFor(row, due)) {
      values[field.uuid] = row.reference!;
      continue;
    }
    const name = field.name;
    if (row?.status === 'paid') {
      const paid = formatAmount(row.amount, row.currency);
      throw signerRefusal(
        `"${name}" ${changedSince(row, due)}: pay the new amount before completing the form.`,
        due ? 'signer_error.payment_changed' : 'signer_error.payment_changed_no_amount',
        { name, paid, due: due ? formatAmount(due.amount, due.currency) : '' },
      );
    }
    throw due
      ? signerRefusal(
          `Pay "${name}" (${formatAmount(due.amount, due.currency)}) before completing the form.`,
          'signer_error.payment_required',
          {
            name,
            amount: formatAmount(due.amount, due.currency),
          },
        )
      : signerRefusal(`Pay "${name}" before completing the form.`, 'signer_error.payment_required_no_amount', { name });
  }
  return values;
}

export type PaymentState = { status: string; amount: string; failure: string | null };

/**
 * The signer's payment states for their page: field uuid → status, amount and the last failure's
 * sentence. A payment paid for an amount the field no longer comes to is `changed`, with the new amount:
 * the page offers Pay again.
 */
export async function paymentStates(db: Db, signing: Signing): Promise<Record<string, PaymentState>> {
  const rows = await paymentsOfSubmitter(db, signing.submitter.id);
  const fields = new Map(signerFields(signing).map((f) => [f.uuid, f]));
  return Object.fromEntries(
    rows.map((p): [string, PaymentState] => {
      const field = fields.get(p.fieldUuid);
      const due = field ? amountDue(signing, field) : null;
      if (p.status === 'paid' && field && !(due && isPaidFor(p, due))) {
        return [
          p.fieldUuid,
          {
            status: 'changed',
            amount: due ? formatAmount(due.amount, due.currency) : formatAmount(p.amount, p.currency),
            failure: `This ${changedSince(p, due)}.`,
          },
        ];
      }
      return [p.fieldUuid, { status: p.status, amount: formatAmount(p.amount, p.currency), failure: p.failureMessage }];
    }),
  );
}
