// Route declarations for the subscription: starting a checkout for a paid plan (spec › Create checkout session).
import { z } from '@hono/zod-openapi';
import { BILLING_INTERVALS, CHECKOUT_PLAN_IDS } from '../../lib/plans';
import { tenantRoute } from '../openapi-helpers';

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
            schema: z.object({ url: z.string().openapi({ example: 'https://checkout.stripe.com/c/pay/cs_test_…' }) }).openapi('CheckoutSession'),
          },
        },
      },
    },
  },
);
