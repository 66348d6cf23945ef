// Route declarations for the subscription: starting a checkout for a paid plan (spec › Create checkout session).
import { createRoute, z } from '@hono/zod-openapi';
import { BILLING_INTERVALS, CHECKOUT_PLAN_IDS } from '../../lib/plans';
import { stripeEventSchema } from '../../services/billing/stripe-delivery';
import { errorResponses, tenantRoute } from '../openapi-helpers';

const planIds = Object.keys(CHECKOUT_PLAN_IDS).map(Number);
const planIdList = Object.entries(CHECKOUT_PLAN_IDS)
  .map(([id, name]) => `${id} (${name})`)
  .join(', ');

export const checkoutBody = z.object({
  plan_id: z
    .number()
    .int()
    .refine((id) => planIds.includes(id), `must be one of ${planIdList}`)
    .openapi({ description: `The plan to buy: ${planIdList}.`, example: 1 }),
  interval: z.enum(BILLING_INTERVALS).default('monthly').openapi({ description: 'Billing interval.', example: 'monthly' }),
});

export const createCheckoutSession = tenantRoute(
  { scopes: ['account:write'], admin: true, idempotent: true, errors: [502] },
  {
    method: 'post',
    path: '/subscription/checkout',
    tags: ['Subscription'],
    summary: 'Start a checkout for a paid plan; redirect the user to the returned URL',
    request: { body: { required: true, content: { 'application/json': { schema: checkoutBody } } } },
    responses: {
      200: {
        description: 'The payment processor’s hosted checkout page.',
        content: {
          'application/json': {
            schema: z
              .object({ url: z.string().openapi({ example: 'https://checkout.stripe.com/c/pay/cs_test_…' }) })
              .openapi('CheckoutSession'),
          },
        },
      },
    },
  },
);

/**
 * Declared here for the OpenAPI document; served outside the token-authenticated API (src/app.ts),
 * because Stripe signs its deliveries instead of sending an API token.
 */
export const stripeWebhook = createRoute({
  method: 'post',
  path: '/subscription/webhook',
  tags: ['Subscription'],
  summary: 'Stripe webhook: applies the paid plan after checkout and returns the account to free when the subscription ends',
  description:
    'Called by Stripe, not by API clients. No API token: the `Stripe-Signature` header (`t=…,v1=…`, HMAC-SHA256 of ' +
    '`<t>.<raw body>` keyed with `STRIPE_WEBHOOK_SECRET`) must verify and `t` must be within 5 minutes. Handles ' +
    '`checkout.session.completed` / `checkout.session.async_payment_succeeded` (plan from the session metadata the checkout ' +
    'route sets) and `customer.subscription.deleted` (back to free); other events are acknowledged and ignored. Each ' +
    'Stripe event id is applied at most once.',
  security: [],
  request: {
    headers: z.object({
      'stripe-signature': z.string().openapi({ param: { name: 'stripe-signature', in: 'header' }, example: 't=1700000000,v1=5257a869…' }),
    }),
    body: { required: true, content: { 'application/json': { schema: stripeEventSchema } } },
  },
  responses: {
    200: {
      description: 'Received. `outcome` says whether the plan changed.',
      content: {
        'application/json': {
          schema: z
            .object({ received: z.literal(true), outcome: z.enum(['applied', 'unchanged', 'ignored', 'duplicate']) })
            .openapi('StripeWebhookReceipt'),
        },
      },
    },
    ...errorResponses([400, 413, 422]),
  },
});
