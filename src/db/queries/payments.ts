// Payment rows of payment fields (src/db/schema/payments.ts). Every status change is conditional on the
// status it changes from, so a webhook racing another (or a new checkout) changes nothing twice.
import { and, eq, ne, or } from 'drizzle-orm';
import type { Db } from '../client';
import { payments, type Payment } from '../schema';
import { nowIso } from '../../lib/time';

export async function paymentsOfSubmitter(db: Db, submitterId: number): Promise<Payment[]> {
  return db.select().from(payments).where(eq(payments.submitterId, submitterId)).all();
}

export async function paymentsOfSubmission(db: Db, submissionId: number): Promise<Payment[]> {
  return db.select().from(payments).where(eq(payments.submissionId, submissionId)).all();
}

export async function getPayment(db: Db, accountId: number, id: number): Promise<Payment | undefined> {
  return db.select().from(payments).where(and(eq(payments.accountId, accountId), eq(payments.id, id))).get();
}

/**
 * The row a new checkout uses: inserted, or reset to pending with the amount as it is now. A paid row
 * is never reset (the condition on status), and then comes back unchanged for the caller to refuse.
 */
export async function preparePayment(
  db: Db,
  row: Pick<Payment, 'accountId' | 'submissionId' | 'submitterId' | 'fieldUuid' | 'amount' | 'currency' | 'description'>,
): Promise<Payment> {
  const at = nowIso();
  await db
    .insert(payments)
    .values({ ...row, status: 'pending', createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [payments.submitterId, payments.fieldUuid],
      set: { amount: row.amount, currency: row.currency, description: row.description, status: 'pending', failureMessage: null, updatedAt: at },
      setWhere: ne(payments.status, 'paid'),
    });
  const stored = await db.select().from(payments).where(and(eq(payments.submitterId, row.submitterId), eq(payments.fieldUuid, row.fieldUuid))).get();
  return stored!;
}

export function setCheckoutSessionStatement(db: Db, id: number, checkoutSessionId: string) {
  return db.update(payments).set({ checkoutSessionId, updatedAt: nowIso() }).where(and(eq(payments.id, id), ne(payments.status, 'paid')));
}

/** pending/failed → paid: a guarded statement (ChangeSet.guarded), so its event is written only with the change. */
export function markPaidStatement(db: Db, accountId: number, id: number, reference: string) {
  const at = nowIso();
  return db
    .update(payments)
    .set({ status: 'paid', reference, failureMessage: null, paidAt: at, updatedAt: at })
    .where(and(eq(payments.accountId, accountId), eq(payments.id, id), or(eq(payments.status, 'pending'), eq(payments.status, 'failed'))));
}

/** pending → failed: a guarded statement. A paid payment stays paid. */
export function markFailedStatement(db: Db, accountId: number, id: number, message: string) {
  return db
    .update(payments)
    .set({ status: 'failed', failureMessage: message.slice(0, 500), updatedAt: nowIso() })
    .where(and(eq(payments.accountId, accountId), eq(payments.id, id), eq(payments.status, 'pending')));
}

/** The paid payments of a submission, for the sealed document and its audit trail. */
export async function paidPaymentsOfSubmission(db: Db, submissionId: number): Promise<Payment[]> {
  return db.select().from(payments).where(and(eq(payments.submissionId, submissionId), eq(payments.status, 'paid'))).orderBy(payments.id).all();
}
