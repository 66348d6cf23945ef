// Handlers for payments: the account's Stripe credentials, its Stripe webhook endpoint and recurring payments.
import type { AppRouteHandler } from '../app-route-handler';
import type { Handler } from 'hono';
import type { AppEnv } from '../../app-env';
import type { Account } from '../../db/schema';
import { getAccount } from '../../db/queries/accounts';
import { ApiError } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import {
  accountStripeCredentials,
  clearPaymentCredentials,
  paymentSettingsOf,
  savePaymentCredentials,
} from '../../services/payments/account-stripe';
import { readStripeDelivery } from '../../services/billing/stripe-delivery';
import { useAccountScope } from '../../middleware/databases';
import { wakeFanOut } from '../../services/webhooks/queue';
import { applyPaymentEvent } from '../../services/signing/field-payments';
import {
  applyRecurringPaymentEvent,
  isRecurringPaymentEvent,
  readPaymentSubscription,
  serializePaymentSubscription,
  subscribe as subscribeToPayments,
} from '../../services/payments/recurring-payments';
import { accountWebhookParams } from './payments.routes';
import type * as routes from './payments.routes';

function serializePaymentSettings(account: Account, origin: string) {
  const settings = paymentSettingsOf(account);
  return {
    configured: settings.configured,
    stripe_key_last4: settings.stripeKeyLast4,
    webhook_url: `${origin}/api/payments/webhook/${account.id}`,
  };
}

export const getPaymentSettings: AppRouteHandler<typeof routes.getPaymentSettings> = (c) =>
  c.json({ payments: serializePaymentSettings(c.var.principal.account, baseUrl(c.req.raw, c.env.APP_URL)) }, 200);

export const updatePaymentSettings: AppRouteHandler<typeof routes.updatePaymentSettings> = async (c) => {
  const body = c.req.valid('json');
  const accountId = c.var.principal.account.id;
  const account = await savePaymentCredentials(c.env.ENCRYPTION_KEY, c.var.control, accountId, {
    secretKey: body.stripe_secret_key,
    webhookSecret: body.stripe_webhook_secret,
  });
  c.set('audit', { action: 'payments.configure', resourceType: 'account', resourceId: accountId });
  return c.json({ payments: serializePaymentSettings(account, baseUrl(c.req.raw, c.env.APP_URL)) }, 200);
};

export const deletePaymentSettings: AppRouteHandler<typeof routes.deletePaymentSettings> = async (c) => {
  const accountId = c.var.principal.account.id;
  const account = await clearPaymentCredentials(c.var.control, accountId);
  c.set('audit', { action: 'payments.unconfigure', resourceType: 'account', resourceId: accountId });
  return c.json({ payments: serializePaymentSettings(account, baseUrl(c.req.raw, c.env.APP_URL)) }, 200);
};

/**
 * Stripe's deliveries for one account. The account id in the path is one control-database lookup that
 * also names its shard, so no shard is searched; the signature is checked with that account's own
 * secret over the raw body before anything is parsed. An unknown account and one without payments
 * configured answer the same 404, so the endpoint does not tell which accounts exist. While the account
 * moves to another shard the write answers 409 and Stripe delivers again later.
 */
export const paymentsWebhook: Handler<AppEnv> = async (c) => {
  const params = accountWebhookParams.safeParse({ account_id: c.req.param('account_id') });
  if (!params.success) throw new ApiError(404, 'No account receives payment webhooks at this address.');
  const account = await getAccount(c.var.control, params.data.account_id);
  const credentials = account ? await accountStripeCredentials(c.env.ENCRYPTION_KEY, account) : null;
  if (!account || !credentials) throw new ApiError(404, 'No account receives payment webhooks at this address.');

  const event = await readStripeDelivery(c.req.raw, credentials.webhookSecret);
  useAccountScope(c, account);
  // Recurring payments' invoices and subscriptions carry payment_subscription_id; payment fields' payment_id.
  const outcome = isRecurringPaymentEvent(event)
    ? await applyRecurringPaymentEvent(c.var.scope.db, account.id, event)
    : (await applyPaymentEvent(c.var.scope.db, account.id, event)).outcome;
  // An applied event wrote its payment.* event: wake the fan-out as the tenant API does after a write
  // (src/middleware/outbox-drain), stamped with the account's shard, rather than leave it to the cron.
  if (outcome === 'applied' && account.hasWebhooks) c.executionCtx.waitUntil(wakeFanOut(c.var.scope.queues.webhooks, 'payments webhook'));
  return c.json({ received: true as const, outcome }, 200);
};

export const subscribe: AppRouteHandler<typeof routes.subscribe> = async (c) => {
  const body = c.req.valid('json');
  const row = await subscribeToPayments(c.env.ENCRYPTION_KEY, c.var.scope.db, c.var.principal.account, {
    submissionId: body.submission_id,
    submitterId: body.submitter_id,
    price: body.price,
    currency: body.currency,
    interval: body.interval,
    trialDays: body.trial_days,
    description: body.description,
  });
  c.set('audit', { action: 'payments.subscribe', resourceType: 'submission', resourceId: row.submissionId });
  return c.json(serializePaymentSubscription(row), 201);
};

export const getSubscription: AppRouteHandler<typeof routes.getSubscription> = async (c) =>
  c.json(
    serializePaymentSubscription(await readPaymentSubscription(c.var.scope.db, c.var.principal.account.id, c.req.valid('param').id)),
    200,
  );
