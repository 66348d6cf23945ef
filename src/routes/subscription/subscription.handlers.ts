// Handlers for the subscription.
import type { AppRouteHandler } from '../app-route-handler';
import type { Handler } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError, unprocessable } from '../../lib/errors';
import { CHECKOUT_PLAN_IDS, planOf } from '../../lib/plans';
import { baseUrl, clientIp } from '../../lib/request';
import { applyStripeEvent } from '../../services/billing/apply-stripe-event';
import { accountScope } from '../../db/shards';
import { readStripeDelivery } from '../../services/billing/stripe-delivery';
import { createCheckoutSession as startCheckout, PaymentProcessorError } from '../../services/billing/stripe-checkout';
import type * as routes from './subscription.routes';

export const createCheckoutSession: AppRouteHandler<typeof routes.createCheckoutSession> = async (c) => {
  const { plan_id, interval } = c.req.valid('json');
  const { account, user } = c.var.principal;
  if (!c.env.STRIPE_SECRET_KEY) {
    throw unprocessable('Checkout is not configured on this server: no payment-processor credentials are set.');
  }
  const plan = planOf(CHECKOUT_PLAN_IDS[plan_id]);
  if (account.plan === plan.name) throw unprocessable(`The account is already on the ${plan.name} plan.`);

  const billing = `${baseUrl(c.req.raw, c.env.APP_URL)}/settings/billing`;
  try {
    const session = await startCheckout(
      { secretKey: c.env.STRIPE_SECRET_KEY, apiBase: c.env.STRIPE_API_BASE || 'https://api.stripe.com' },
      {
        plan,
        interval,
        accountId: account.id,
        customerEmail: user.email,
        successUrl: `${billing}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${billing}?checkout=cancelled`,
      },
    );
    c.set('audit', { action: 'subscription.checkout', resourceType: 'checkout_session', resourceId: session.id });
    return c.json({ url: session.url }, 200);
  } catch (err) {
    if (!(err instanceof PaymentProcessorError)) throw err;
    console.error(`[${c.var.requestId}] checkout: ${err.message}${err.detail ? ` — ${err.detail}` : ''}`);
    throw new ApiError(502, err.message);
  }
};

/** Stripe's deliveries: verified by signature over the raw body before anything is parsed. */
export const stripeWebhook: Handler<AppEnv> = async (c) => {
  const secret = c.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) throw unprocessable('Stripe webhooks are not configured on this server: STRIPE_WEBHOOK_SECRET is not set.');
  const event = await readStripeDelivery(c.req.raw, secret);
  const outcome = await applyStripeEvent(c.var.control, (account) => accountScope(c.env, account).db, event, {
    method: c.req.method,
    path: c.req.path,
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent')?.slice(0, 512) ?? null,
    requestId: c.var.requestId,
  });
  return c.json({ received: true as const, outcome }, 200);
};
