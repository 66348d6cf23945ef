// Applies a verified Stripe webhook event to the account it names, once per Stripe event id.
import type { Db } from '../../db/client';
import type { Account } from '../../db/schema/index';
import { getAccount } from '../../db/queries/accounts';
import { insertAuditEventStatement, type NewAuditEvent } from '../../db/queries/audit-events';
import {
  cancelSubscriptionStatement,
  findStripeEvent,
  findSubscriptionDeletion,
  insertStripeEventStatement,
  subscribeAccountStatement,
} from '../../db/queries/billing';
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
 *
 * Stripe does not deliver events in order (stripe.com/docs/webhooks › event ordering), so an event
 * older than the one that last changed the plan changes nothing, and neither does a checkout whose
 * subscription's deletion has already arrived. The plan update carries the time condition itself, so
 * two deliveries racing cannot leave the older one's plan.
 */
export async function applyStripeEvent(
  db: Db,
  shards: (account: Account) => Db,
  event: StripeEvent,
  audit: AuditContext,
): Promise<StripeEventOutcome> {
  if (await findStripeEvent(db, event.id)) return 'duplicate';
  const change = planChangeOf(event);
  const account = change ? await getAccount(db, change.accountId) : undefined;
  if (!change || !account) return 'ignored';

  const created = event.created ?? null;
  const stale = created !== null && account.stripePlanEventCreated !== null && created < account.stripePlanEventCreated;
  // Only asked when it can matter: a stale event changes nothing either way.
  const ended =
    !stale &&
    change.kind === 'subscribed' &&
    change.subscriptionId !== null &&
    (await findSubscriptionDeletion(db, change.subscriptionId)) !== undefined;
  const applies = !stale && !ended && (change.kind === 'subscribed' || account.stripeSubscriptionId === change.subscriptionId);
  const record = insertStripeEventStatement(db, {
    id: event.id,
    type: event.type,
    accountId: account.id,
    subscriptionId: change.subscriptionId,
  });
  try {
    if (!applies) {
      await record;
      return 'unchanged';
    }
    await db.batch([
      record,
      change.kind === 'subscribed'
        ? subscribeAccountStatement(
            db,
            change.accountId,
            { plan: change.plan, subscriptionId: change.subscriptionId, customerId: change.customerId },
            created,
          )
        : cancelSubscriptionStatement(db, change.accountId, change.subscriptionId, created),
    ]);
    // The plan lives in the control database, the trail on the account's shard (docs/scaling.md): the
    // trail row follows the change it records. A failure here answers 500 after the plan changed, and
    // Stripe's redelivery is then a duplicate: the row is lost, never the change.
    const trail = shards(account);
    await insertAuditEventStatement(trail, {
      ...audit,
      accountId: account.id,
      userId: null,
      accessTokenId: null,
      actor: 'stripe',
      action: change.kind === 'subscribed' ? 'subscription.plan_changed' : 'subscription.cancelled',
      resourceType: 'account',
      resourceId: String(account.id),
      status: 200,
    });
    return 'applied';
  } catch (err) {
    if (isUniqueViolation(err)) return 'duplicate';
    throw err;
  }
}
