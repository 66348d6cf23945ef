// What a Stripe webhook event means for an account's plan (the checkout route writes the metadata read here).
import { PLAN_NAMES, type PlanName } from '../../lib/plans';

/** The parts of a Stripe event this service reads (stripe.com/docs/api/events/object). */
export type StripeEvent = {
  id: string;
  type: string;
  /** When Stripe created the event, in Unix seconds; deliveries can arrive in any order. */
  created?: number;
  data: { object: Record<string, unknown> };
};

export type PlanChange =
  /** A paid checkout: the account moves to `plan`, paid for by `subscriptionId`. */
  | { kind: 'subscribed'; accountId: number; plan: PlanName; subscriptionId: string | null; customerId: string | null }
  /** A subscription ended: the account returns to free if this was the subscription paying for its plan. */
  | { kind: 'cancelled'; accountId: number; subscriptionId: string };

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Stripe expands some references into objects; either way the id is what is stored. */
function idOf(value: unknown): string | null {
  if (value && typeof value === 'object') return text((value as { id?: unknown }).id);
  return text(value);
}

function accountIdOf(...candidates: unknown[]): number | null {
  for (const candidate of candidates) {
    const value = text(candidate);
    if (value && /^\d{1,15}$/.test(value)) return Number(value);
  }
  return null;
}

function metadataOf(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = object.metadata;
  return metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : {};
}

/**
 * `checkout.session.completed` (and `checkout.session.async_payment_succeeded` for delayed payment
 * methods) applies the plan named in the session's metadata to the account in `client_reference_id`
 * (or `metadata.account_id`), both set by POST /api/subscription/checkout. A completed session whose
 * payment is still `unpaid` changes nothing yet. `customer.subscription.deleted` carries the
 * subscription's metadata (checkout sets `subscription_data[metadata]`). Anything else: null.
 */
export function planChangeOf(event: StripeEvent): PlanChange | null {
  const object = event.data?.object ?? {};
  const metadata = metadataOf(object);
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    if (object.payment_status === 'unpaid') return null;
    const accountId = accountIdOf(object.client_reference_id, metadata.account_id);
    const plan = text(metadata.plan);
    if (accountId === null || !plan || !(PLAN_NAMES as readonly string[]).includes(plan) || plan === 'free') return null;
    return {
      kind: 'subscribed',
      accountId,
      plan: plan as PlanName,
      subscriptionId: idOf(object.subscription),
      customerId: idOf(object.customer),
    };
  }
  if (event.type === 'customer.subscription.deleted') {
    const accountId = accountIdOf(metadata.account_id);
    const subscriptionId = text(object.id);
    if (accountId === null || !subscriptionId) return null;
    return { kind: 'cancelled', accountId, subscriptionId };
  }
  return null;
}
