// Billing rows: Stripe events already applied, and the plan changes they make.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts, stripeEvents } from '../schema';
import { nowIso } from '../../lib/time';

export async function findStripeEvent(db: Db, id: string) {
  return db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).get();
}

export function insertStripeEventStatement(db: Db, values: typeof stripeEvents.$inferInsert) {
  return db.insert(stripeEvents).values(values);
}

/** Sets the paid plan and remembers the subscription paying for it. */
export function subscribeAccountStatement(
  db: Db,
  accountId: number,
  paid: { plan: string; subscriptionId: string | null; customerId: string | null },
) {
  return db
    .update(accounts)
    .set({ plan: paid.plan, stripeSubscriptionId: paid.subscriptionId, stripeCustomerId: paid.customerId, updatedAt: nowIso() })
    .where(eq(accounts.id, accountId));
}

/** Back to free, only if `subscriptionId` is still the one paying for the account's plan. */
export function cancelSubscriptionStatement(db: Db, accountId: number, subscriptionId: string) {
  return db
    .update(accounts)
    .set({ plan: 'free', stripeSubscriptionId: null, updatedAt: nowIso() })
    .where(and(eq(accounts.id, accountId), eq(accounts.stripeSubscriptionId, subscriptionId)));
}
