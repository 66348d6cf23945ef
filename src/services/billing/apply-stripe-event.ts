// Applies a verified Stripe webhook event to the account it names, once per Stripe event id.
import type { Db } from '../../db/client';
import { getAccount } from '../../db/queries/accounts';
import { insertAuditEventStatement, type NewAuditEvent } from '../../db/queries/audit-events';
import { cancelSubscriptionStatement, findStripeEvent, insertStripeEventStatement, subscribeAccountStatement } from '../../db/queries/billing';
import { isUniqueViolation } from '../../db/errors';
import { planChangeOf, type StripeEvent } from './stripe-events';

/** What the delivery did: Stripe only needs a 2xx, the outcome helps whoever reads the endpoint's log. */
export type StripeEventOutcome = 'applied' | 'unchanged' | 'ignored' | 'duplicate';

/** The request's part of the audit row (`auditRow` without account, status or action). */
export type AuditContext = Pick<NewAuditEvent, 'method' | 'path' | 'ip' | 'userAgent' | 'requestId'>;

/**
 * Records the event id and changes the plan in one batch, so a redelivery (Stripe retries until it
 * gets a 2xx, and may deliver twice) changes nothing: the id is the primary key of `stripe_events`,
 * and a concurrent duplicate fails the whole batch on it. A cancellation only returns the account to
 * free when the cancelled subscription is the one paying for its plan, so cancelling an old
 * subscription after upgrading through a new checkout leaves the new plan alone.
 */
export async function applyStripeEvent(db: Db, event: StripeEvent, audit: AuditContext): Promise<StripeEventOutcome> {
  if (await findStripeEvent(db, event.id)) return 'duplicate';
  const change = planChangeOf(event);
  const account = change ? await getAccount(db, change.accountId) : undefined;
  if (!change || !account) return 'ignored';

  const applies = change.kind === 'subscribed' || account.stripeSubscriptionId === change.subscriptionId;
  const record = insertStripeEventStatement(db, { id: event.id, type: event.type, accountId: account.id });
  try {
    if (!applies) {
      await record;
      return 'unchanged';
    }
    await db.batch([
      record,
      change.kind === 'subscribed'
        ? subscribeAccountStatement(db, change.accountId, { plan: change.plan, subscriptionId: change.subscriptionId, customerId: change.customerId })
        : cancelSubscriptionStatement(db, change.accountId, change.subscriptionId),
      insertAuditEventStatement(db, {
        ...audit,
        accountId: account.id,
        userId: null,
        accessTokenId: null,
        actor: 'stripe',
        action: change.kind === 'subscribed' ? 'subscription.plan_changed' : 'subscription.cancelled',
        resourceType: 'account',
        resourceId: String(account.id),
        status: 200,
      }),
    ]);
    return 'applied';
  } catch (err) {
    if (isUniqueViolation(err)) return 'duplicate';
    throw err;
  }
}
