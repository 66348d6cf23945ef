// Billing rows: Stripe events already applied, and the plan changes they make.
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, stripeEvents } from '../schema';
import { nowIso } from '../../lib/time';

export async function findStripeEvent(db: Db, id: string) {
  return db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).get();
}

export function insertStripeEventStatement(db: Db, values: typeof stripeEvents.$inferInsert) {
  return db.insert(stripeEvents).values(values);
}

/** A `customer.subscription.deleted` already received for this subscription, applied or not. */
export async function findSubscriptionDeletion(db: Db, subscriptionId: string) {
  return db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(and(eq(stripeEvents.subscriptionId, subscriptionId), eq(stripeEvents.type, 'customer.subscription.deleted')))
    .get();
}

/**
 * Only while no newer Stripe event has changed the plan (`created` in Unix seconds; null when the event
 * carries none), and then remembering this one's time.
 */
function newerThanLastPlanEvent(created: number | null) {
  return created === null ? undefined : or(isNull(accounts.stripePlanEventCreated), lte(accounts.stripePlanEventCreated, created));
}

function planEventTime(created: number | null) {
  return created === null ? accounts.stripePlanEventCreated : sql`${created}`;
}

/** Sets the paid plan and remembers the subscription paying for it. */
export function subscribeAccountStatement(
  db: Db,
  accountId: number,
  paid: { plan: string; subscriptionId: string | null; customerId: string | null },
  created: number | null,
) {
  return db
    .update(accounts)
    .set({
      plan: paid.plan,
      stripeSubscriptionId: paid.subscriptionId,
      stripeCustomerId: paid.customerId,
      stripePlanEventCreated: planEventTime(created),
      updatedAt: nowIso(),
    })
    .where(and(eq(accounts.id, accountId), newerThanLastPlanEvent(created)));
}

/** Back to free, only if `subscriptionId` is still the one paying for the account's plan. */
export function cancelSubscriptionStatement(db: Db, accountId: number, subscriptionId: string, created: number | null) {
  return db
    .update(accounts)
    .set({ plan: 'free', stripeSubscriptionId: null, stripePlanEventCreated: planEventTime(created), updatedAt: nowIso() })
    .where(and(eq(accounts.id, accountId), eq(accounts.stripeSubscriptionId, subscriptionId), newerThanLastPlanEvent(created)));
}
