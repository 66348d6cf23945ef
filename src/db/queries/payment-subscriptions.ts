// Recurring payments linked to submissions (src/db/schema/payments.ts › paymentSubscriptions). Status
// changes are statements for ChangeSet.guarded, conditional on the status they leave, so a change and its
// payment.* event are written together once, whoever races.
import { and, asc, eq, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { Db } from '../client';
import { notFenced } from '../fences';
import {
  paymentSubscriptionInvoices,
  paymentSubscriptions,
  submitters,
  type PaymentSubscription,
  type PaymentSubscriptionStatus,
} from '../schema';
import { nowIso } from '../../lib/time';
import { inList } from '../bound-parameters';

export type NewPaymentSubscription = Pick<
  PaymentSubscription,
  'accountId' | 'submissionId' | 'submitterId' | 'amount' | 'currency' | 'interval' | 'trialDays' | 'description'
>;

/** Inserts it, or returns null when the submission already has one (the unique index decides a race). */
export async function insertPaymentSubscription(db: Db, row: NewPaymentSubscription): Promise<PaymentSubscription | null> {
  const at = nowIso();
  const [inserted] = await db
    .insert(paymentSubscriptions)
    .values({ ...row, status: 'scheduled', createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: paymentSubscriptions.submissionId })
    .returning();
  return inserted ?? null;
}

export async function getPaymentSubscription(db: Db, accountId: number, id: number): Promise<PaymentSubscription | undefined> {
  return db
    .select()
    .from(paymentSubscriptions)
    .where(and(eq(paymentSubscriptions.accountId, accountId), eq(paymentSubscriptions.id, id)))
    .get();
}

export async function paymentSubscriptionOfSubmission(db: Db, submissionId: number): Promise<PaymentSubscription | undefined> {
  return db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.submissionId, submissionId)).get();
}

/** Scheduled recurring payments whose signer has completed and whose next attempt is due, oldest first. */
export async function paymentSubscriptionsDueToStart(db: Db, at: string, limit: number): Promise<PaymentSubscription[]> {
  const rows = await db
    .select({ row: paymentSubscriptions })
    .from(paymentSubscriptions)
    .innerJoin(submitters, eq(submitters.id, paymentSubscriptions.submitterId))
    .where(
      and(
        eq(paymentSubscriptions.status, 'scheduled'),
        // A moving account's rows cannot be written; its new shard starts them (src/db/fences.ts).
        notFenced(paymentSubscriptions.accountId),
        isNotNull(submitters.completedAt),
        or(isNull(paymentSubscriptions.nextAttemptAt), lte(paymentSubscriptions.nextAttemptAt, at)),
      ),
    )
    .orderBy(asc(paymentSubscriptions.id))
    .limit(limit)
    .all();
  return rows.map((r) => r.row);
}

/** scheduled → Stripe's status, with its ids: guarded, so two runs starting it at once record it once. */
export function markStartedStatement(
  db: Db,
  id: number,
  started: { status: PaymentSubscriptionStatus; customerId: string; subscriptionId: string },
) {
  const at = nowIso();
  return db
    .update(paymentSubscriptions)
    .set({
      status: started.status,
      stripeCustomerId: started.customerId,
      stripeSubscriptionId: started.subscriptionId,
      lastError: null,
      nextAttemptAt: null,
      startedAt: at,
      updatedAt: at,
    })
    .where(and(eq(paymentSubscriptions.id, id), eq(paymentSubscriptions.status, 'scheduled')));
}

/** A failed start: counted, with its reason and the next attempt's time; `failed` when no attempt is left (guarded). */
export function recordStartFailureStatement(db: Db, id: number, attempts: number, error: string, nextAttemptAt: string | null) {
  return db
    .update(paymentSubscriptions)
    .set({
      startAttempts: attempts,
      lastError: error.slice(0, 500),
      nextAttemptAt,
      ...(nextAttemptAt === null ? { status: 'failed' as const } : {}),
      updatedAt: nowIso(),
    })
    .where(and(eq(paymentSubscriptions.id, id), eq(paymentSubscriptions.status, 'scheduled')));
}

/** A started recurring payment takes Stripe's new status; a canceled one stays canceled. */
export function setStatusStatement(db: Db, accountId: number, id: number, status: PaymentSubscriptionStatus) {
  const at = nowIso();
  return db
    .update(paymentSubscriptions)
    .set({ status, updatedAt: at, ...(status === 'canceled' ? { canceledAt: at } : {}) })
    .where(
      and(
        eq(paymentSubscriptions.accountId, accountId),
        eq(paymentSubscriptions.id, id),
        inList(paymentSubscriptions.status, ['incomplete', 'trialing', 'active', 'past_due']),
        ...(status === 'canceled' ? [] : [ne(paymentSubscriptions.status, 'canceled')]),
      ),
    );
}

/** Records an invoice's outcome; inserts nothing (changes() = 0, for ChangeSet.guarded) when it was recorded before. */
export function recordInvoiceStatement(
  db: Db,
  row: { accountId: number; paymentSubscriptionId: number; stripeInvoiceId: string; outcome: 'paid' | 'failed' },
) {
  return db.insert(paymentSubscriptionInvoices).values(row).onConflictDoNothing();
}
