// Route declarations for payments: the account's Stripe credentials and its Stripe webhook endpoint
// (spec › Template field type `payment`; decisions.md › Public links and payments).
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, tenantRoute } from '../openapi-helpers';
import { stripeEventSchema } from '../subscription/subscription.routes';

export const paymentSettingsSchema = z
  .object({
    configured: z.boolean().openapi({ description: 'Whether both a secret key and a webhook signing secret are stored.' }),
    stripe_key_last4: z.string().nullable().openapi({ description: 'The last 4 characters of the stored secret key; the key itself is never returned.', example: 'x4Qz' }),
    webhook_url: z.string().openapi({ description: 'Where to point the account’s Stripe webhook endpoint.', example: 'https://sign.example.com/api/payments/webhook/42' }),
  })
  .openapi('PaymentSettings');

export const paymentSettingsBody = z.object({
  stripe_secret_key: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,250}$/, 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)')
    .openapi({ example: 'sk_test_51Nx…' }),
  stripe_webhook_secret: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9]{8,250}$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .openapi({ example: 'whsec_…' }),
});

const settingsResponse = { content: { 'application/json': { schema: z.object({ payments: paymentSettingsSchema }) } } };

export const getPaymentSettings = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/payments',
    tags: ['Settings'],
    summary: 'Whether the account’s Stripe credentials for payment fields are configured',
    responses: { 200: { description: 'The payment settings (never the secrets).', ...settingsResponse } },
  },
);

export const updatePaymentSettings = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/settings/payments',
    tags: ['Settings'],
    summary: 'Store the account’s Stripe credentials for payment fields',
    description:
      'Admins only. Both values are stored encrypted and never returned. Payment fields on signing pages charge through this key; ' +
      'Stripe’s deliveries to `webhook_url` are verified with the webhook secret.',
    request: { body: { required: true, content: { 'application/json': { schema: paymentSettingsBody } } } },
    responses: { 200: { description: 'The stored settings.', ...settingsResponse } },
  },
);

export const deletePaymentSettings = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'delete',
    path: '/settings/payments',
    tags: ['Settings'],
    summary: 'Forget the account’s Stripe credentials',
    responses: { 200: { description: 'The settings, now unconfigured.', ...settingsResponse } },
  },
);

export const accountWebhookParams = z.object({
  account_id: z.coerce
    .number({ error: 'must be an integer account id' })
    .int('must be an integer account id')
    .positive('must be a positive integer account id')
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 42 }),
});

/** Declared for the OpenAPI document; served ahead of the token-authenticated API (src/app.ts). */
export const paymentsWebhook = createRoute({
  method: 'post',
  path: '/payments/webhook/{account_id}',
  tags: ['Payments'],
  summary: 'The account’s Stripe webhook: marks payment fields paid or failed',
  description:
    'Called by Stripe, not by API clients. No API token: the `Stripe-Signature` header must verify with the webhook secret stored ' +
    'by `PUT /api/settings/payments` for the account in the path, within 5 minutes. Each Stripe event id is applied at most once.',
  security: [],
  request: {
    params: accountWebhookParams,
    headers: z.object({ 'stripe-signature': z.string().openapi({ param: { name: 'stripe-signature', in: 'header' }, example: 't=1700000000,v1=5257a869…' }) }),
    body: { required: true, content: { 'application/json': { schema: stripeEventSchema } } },
  },
  responses: {
    200: {
      description: 'Received. `outcome` says whether a payment changed.',
      content: {
        'application/json': {
          schema: z.object({ received: z.literal(true), outcome: z.enum(['applied', 'unchanged', 'ignored', 'duplicate']) }).openapi('PaymentsWebhookReceipt'),
        },
      },
    },
    ...errorResponses([400, 404]),
  },
});
