// Payment fields on the signing page (spec › Template field type `payment`; docs/payments.md): starting a
// Stripe Checkout with the account's key, applying Stripe's webhooks to the payment row, and the
// completion rule — a signer cannot complete until every payment field of theirs is paid.
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import type { Payment, TemplateField } from '../../db/schema';
import { getPayment, markFailedStatement, markPaidStatement, paymentsOfSubmitter, preparePayment, setCheckoutSessionStatement } from '../../db/queries/payments';
import { findSubmissionById } from '../../db/queries/submissions';
import type { EventName } from '../../lib/events';
import { unprocessable } from '../../lib/errors';
import { outboxInsert } from '../events/outbox';
import { ChangeSet } from '../submissions/change-set';
import { loadScope, submissionRef, templateRef, type SubmissionScope } from '../submissions/submission-scope';
import { paymentEventData } from '../webhooks/payment-payloads';
import { type Signing, resolvedValues, signerFields } from '../signing/signing-session';
import type { StripeEvent } from '../billing/stripe-events';
import { accountStripeCredentials } from './account-stripe';
import { formatAmount, toMinorUnits } from './payment-field';
import { createPaymentCheckout } from './stripe-payments';

/** What the field charges now, in minor units: its fixed amount, or its formula over the signer's values. */
export function fieldAmount(signing: Pick<Signing, 'scope' | 'submitter'>, field: TemplateField): { amount: number; currency: string } {
  const prefs = field.preferences as { amount?: number | string; currency?: string };
  const currency = String(prefs.currency ?? '');
  const major = field.formula ? Number(resolvedValues(signing, signing.submitter.values).values[field.uuid]) : Number(prefs.amount);
  const amount = Number.isFinite(major) ? toMinorUnits(Math.round(major * 1e6) / 1e6, currency) : null;
  if (amount === null) {
    throw unprocessable(`"${field.name}" has no amount to pay yet: fill in the fields it is computed from with numbers that give an amount above 0.`);
  }
  return { amount, currency };
}

function paymentFieldOf(signing: Signing, fieldUuid: string): TemplateField {
  const field = signerFields(signing).find((f) => f.uuid === fieldUuid && f.type === 'payment');
  if (!field) throw unprocessable(`${fieldUuid} is not one of your payment fields.`);
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
  if (!credentials) throw unprocessable('Payments are not set up for this form yet; contact the sender.');
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
  if (payment.status === 'paid') throw unprocessable(`"${field.name}" is already paid.`);
  const session = await createPaymentCheckout(
    { secretKey: credentials.secretKey, apiBase: env.STRIPE_API_BASE || 'https://api.stripe.com' },
    {
      paymentId: payment.id,
      accountId: signing.account.id,
      amount,
      currency,
      name: field.name,
      description,
      customerEmail: signing.submitter.email,
      successUrl: `${pageUrl}?payment=success`,
      cancelUrl: `${pageUrl}?payment=cancelled`,
    },
  );
  if (!session.url) throw unprocessable('The payment processor did not return a checkout page; try again.');
  // payment.created: a checkout was started (each attempt after a refused one fires again, same payment id).
  await db.batch([
    setCheckoutSessionStatement(db, payment.id, session.id),
    fieldPaymentEvent(db, signing.scope, payment, 'payment.created', { status: 'pending', reference: session.id, failure: null }),
  ]);
  return session.url;
}

/** The outbox row of a payment field's payment.* event, with the payment as the change leaves it. */
function fieldPaymentEvent(
  db: Db,
  scope: SubmissionScope,
  payment: Payment,
  event: EventName,
  now: { status: string; reference: string | null; failure: string | null },
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
        amount: payment.amount,
        currency: payment.currency,
        description: payment.description,
        reference: now.reference,
        invoice: null,
        failure_message: now.failure,
        field: { uuid: payment.fieldUuid, name: field?.name ?? '' },
        interval: null,
        trial_days: null,
      },
      submission: submissionRef(scope.submission, scope.template),
      submitter: submitter ? { id: submitter.id, uuid: submitter.uuid, email: submitter.email ?? '', name: submitter.name ?? '', role: submitter.role } : null,
      template: templateRef(scope.template),
    }),
  });
}

class Unchanged extends Error {}

/** Runs a guarded status change with its event; false when the payment had already left the state it changes from. */
async function changeWithEvent(db: Db, change: BatchItem<'sqlite'>, event: BatchItem<'sqlite'>): Promise<boolean> {
  try {
    await new ChangeSet(db).guarded(change).add(event).commit(undefined, () => new Unchanged());
    return true;
  } catch (error) {
    if (error instanceof Unchanged) return false;
    throw error;
  }
}

const FIELD_PAYMENT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
]);

export type PaymentEventOutcome = 'applied' | 'unchanged' | 'ignored';

type StripeObject = { id?: unknown; metadata?: { payment_id?: unknown }; payment_status?: unknown; payment_intent?: unknown; last_payment_error?: { message?: unknown } };

/**
 * Applies one verified Stripe event of the account to its payment row. Paid wins: a failure arriving
 * after the success (Stripe does not deliver in order) changes nothing, and so does a redelivery.
 */
export async function applyPaymentEvent(db: Db, accountId: number, event: StripeEvent): Promise<{ outcome: PaymentEventOutcome; payment?: Payment }> {
  if (!FIELD_PAYMENT_EVENTS.has(event.type)) return { outcome: 'ignored' };
  const object = event.data.object as StripeObject;
  const paymentId = Number(object.metadata?.payment_id);
  if (!Number.isSafeInteger(paymentId) || paymentId <= 0) return { outcome: 'ignored' };
  const payment = await getPayment(db, accountId, paymentId);
  if (!payment) return { outcome: 'ignored' };
  const submission = await findSubmissionById(db, payment.submissionId);
  if (!submission) return { outcome: 'ignored' };
  const scope = await loadScope(db, submission);
  const paid = (reference: string) =>
    changeWithEvent(db, markPaidStatement(db, accountId, paymentId, reference), fieldPaymentEvent(db, scope, payment, 'payment.succeeded', { status: 'paid', reference, failure: null }));
  const failed = (message: string, name: 'payment.failed' | 'payment.canceled') =>
    changeWithEvent(
      db,
      markFailedStatement(db, accountId, paymentId, message),
      fieldPaymentEvent(db, scope, payment, name, { status: name === 'payment.failed' ? 'failed' : 'canceled', reference: payment.checkoutSessionId, failure: message }),
    );
  let changed: boolean;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      if (object.payment_status !== 'paid') return { outcome: 'unchanged', payment };
      changed = await paid(typeof object.payment_intent === 'string' ? object.payment_intent : String(object.id));
      break;
    case 'payment_intent.succeeded':
      changed = await paid(String(object.id));
      break;
    case 'payment_intent.payment_failed':
    case 'checkout.session.async_payment_failed':
      changed = await failed(typeof object.last_payment_error?.message === 'string' ? object.last_payment_error.message : 'The payment was refused.', 'payment.failed');
      break;
    case 'checkout.session.expired':
      // Abandoned: the signer left Stripe's page and the session ran out (payment.canceled).
      changed = await failed('The payment was not finished in time.', 'payment.canceled');
      break;
    default:
      return { outcome: 'ignored' };
  }
  return { outcome: changed ? 'applied' : 'unchanged', payment: (await getPayment(db, accountId, paymentId)) ?? payment };
}

/**
 * The completion rule: every payment field of the signer must be paid. Returns the values to store
 * for them (the payment reference), or throws 422 naming the first unpaid field.
 */
export async function paidFieldValues(db: Db, signing: Signing, hidden: ReadonlySet<string> = new Set()): Promise<Record<string, string>> {
  const fields = signerFields(signing).filter((f) => f.type === 'payment' && !hidden.has(f.uuid));
  if (fields.length === 0) return {};
  const rows = new Map((await paymentsOfSubmitter(db, signing.submitter.id)).map((p) => [p.fieldUuid, p]));
  const values: Record<string, string> = {};
  for (const field of fields) {
    const row = rows.get(field.uuid);
    if (row?.status !== 'paid' || !row.reference) {
      const due = (() => {
        try {
          const { amount, currency } = fieldAmount(signing, field);
          return ` (${formatAmount(amount, currency)})`;
        } catch {
          return '';
        }
      })();
      throw unprocessable(`Pay "${field.name}"${due} before completing the form.`);
    }
    values[field.uuid] = row.reference;
  }
  return values;
}

/** The signer's payment states for their page: field uuid → status, and the last failure's sentence. */
export async function paymentStates(db: Db, submitterId: number): Promise<Record<string, { status: string; amount: string; failure: string | null }>> {
  const rows = await paymentsOfSubmitter(db, submitterId);
  return Object.fromEntries(rows.map((p) => [p.fieldUuid, { status: p.status, amount: formatAmount(p.amount, p.currency), failure: p.failureMessage }]));
}
