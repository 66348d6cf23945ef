// Payment rows of payment fields (src/db/schema/payments.ts). Every status change is conditional on the
// status it changes from, so a webhook racing another (or a new checkout) changes nothing twice; a payment
// counts only for the checkout prepared last, at the amount it was prepared for (docs/payments.md).
import { and, eq, not, or } from 'drizzle-orm';
import type { Db } from '../client';
import { payments, type Payment } from '../schema';
import { nowIso } from '../../lib/time';

export async function paymentsOfSubmitter(db: Db, submitterId: number): Promise<Payment[]> {
  return db.select().from(payments).where(eq(payments.submitterId, submitterId)).all();
}

export async function getPayment(db: Db, accountId: number, id: number): Promise<Payment | undefined> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.accountId, accountId), eq(payments.id, id)))
    .get();
}

/**
 * The row of a submitter's payment field, inserted (pending, with the amount asked now and no session yet)
 * when it is the first checkout. An existing row is returned as it is: the checkout only changes it once
 * Stripe has answered (checkoutStartedStatement), so the amount and the session always change together.
 */
export async function preparePayment(
  db: Db,
  row: Pick<Payment, 'accountId' | 'submissionId' | 'submitterId' | 'fieldUuid' | 'amount' | 'currency' | 'description'>,
): Promise<Payment> {
  const at = nowIso();
  await db
    .insert(payments)
    .values({ ...row, status: 'pending', createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: [payments.submitterId, payments.fieldUuid] });
  const stored = await db
    .select()
    .from(payments)
    .where(and(eq(payments.submitterId, row.submitterId), eq(payments.fieldUuid, row.fieldUuid)))
    .get();
  return stored!;
}

/** What a Checkout Session was prepared for, or what Stripe reports it charged: amount in minor units, ISO 4217 upper case. */
export type Charge = { sessionId: string; amount: number; currency: string };

/**
 * A new checkout for the payment: pending, for this session and amount. A guarded statement
 * (ChangeSet.guarded): it changes nothing when the payment is already paid for this very amount, while a
 * payment whose amount changed after it was paid (a formula's inputs) starts again, its old payment no
 * longer counting.
 */
export function checkoutStartedStatement(db: Db, id: number, charge: Charge & { description: string | null }) {
  return db
    .update(payments)
    .set({
      status: 'pending',
      checkoutSessionId: charge.sessionId,
      amount: charge.amount,
      currency: charge.currency,
      description: charge.description,
      reference: null,
      failureMessage: null,
      paidAt: null,
      updatedAt: nowIso(),
    })
    .where(
      and(
        eq(payments.id, id),
        not(and(eq(payments.status, 'paid'), eq(payments.amount, charge.amount), eq(payments.currency, charge.currency))!),
      ),
    );
}

/**
 * pending/failed → paid, only for the session prepared last and exactly the amount and currency it was
 * prepared for; the row then records what Stripe charged. A guarded statement (ChangeSet.guarded), so
 * its event is written only with the change.
 */
export function markPaidStatement(db: Db, accountId: number, id: number, charged: Charge, reference: string) {
  const at = nowIso();
  return db
    .update(payments)
    .set({ status: 'paid', reference, amount: charged.amount, currency: charged.currency, failureMessage: null, paidAt: at, updatedAt: at })
    .where(
      and(
        eq(payments.accountId, accountId),
        eq(payments.id, id),
        or(eq(payments.status, 'pending'), eq(payments.status, 'failed')),
        eq(payments.checkoutSessionId, charged.sessionId),
        eq(payments.amount, charged.amount),
        eq(payments.currency, charged.currency),
      ),
    );
}

/**
 * pending → failed: a guarded statement. A paid payment stays paid, and a failure counts only for the
 * checkout prepared last — its session, or (a PaymentIntent names no session) its amount and currency.
 */
export function markFailedStatement(
  db: Db,
  accountId: number,
  id: number,
  message: string,
  about: { sessionId: string } | { amount: number; currency: string },
) {
  const matches =
    'sessionId' in about
      ? eq(payments.checkoutSessionId, about.sessionId)
      : and(eq(payments.amount, about.amount), eq(payments.currency, about.currency));
  return db
    .update(payments)
    .set({ status: 'failed', failureMessage: message.slice(0, 500), updatedAt: nowIso() })
    .where(and(eq(payments.accountId, accountId), eq(payments.id, id), eq(payments.status, 'pending'), matches));
}

/** The paid payments of a submission, for the sealed document and its audit trail. */
export async function paidPaymentsOfSubmission(db: Db, submissionId: number): Promise<Payment[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.submissionId, submissionId), eq(payments.status, 'paid')))
    .orderBy(payments.id)
    .all();
}
