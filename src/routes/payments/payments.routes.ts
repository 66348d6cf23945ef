// Route declarations for payments: the account's Stripe credentials, its Stripe webhook endpoint and recurring payments
// (spec › Template field type `payment`; decisions.md › Public links and payments).
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, idParamsSchema, tenantRoute } from '../openapi-helpers';
import { stripeEventSchema } from '../../services/billing/stripe-delivery';

export const paymentSettingsSchema = z
  .object({
    configured: z.boolean().openapi({ description: 'Whether both a secret key and a webhook signing secret are stored.' }),
    stripe_key_last4: z
      .string()
      .nullable()
      .openapi({ description: 'The last 4 characters of the stored secret key; the key itself is never returned.', example: 'x4Qz' }),
    webhook_url: z.string().openapi({
      description: 'Where to point the account’s Stripe webhook endpoint.',
      example: 'https://sign.example.com/api/payments/webhook/42',
    }),
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
  summary: 'The account’s Stripe webhook: marks payment fields paid or failed, and drives recurring payments',
  description:
    'Called by Stripe, not by API clients. No API token: the `Stripe-Signature` header must verify with the webhook secret stored ' +
    'by `PUT /api/settings/payments` for the account in the path, within 5 minutes. Each Stripe event id is applied at most once. ' +
    'Payment fields: checkout.session.* events (a field counts as paid only from the session prepared last, charging the amount and currency it was ' +
    'prepared for) and payment_intent.payment_failed; recurring payments: invoice.paid, invoice.payment_failed, customer.subscription.deleted.',
  security: [],
  request: {
    params: accountWebhookParams,
    headers: z.object({
      'stripe-signature': z.string().openapi({ param: { name: 'stripe-signature', in: 'header' }, example: 't=1700000000,v1=5257a869…' }),
    }),
    body: { required: true, content: { 'application/json': { schema: stripeEventSchema } } },
  },
  responses: {
    200: {
      description:
        'Received. `outcome` says whether a payment changed: `not_counted` is a payment field’s Checkout Session that is not the one ' +
        'prepared last for the field’s amount, or whose `amount_total` or currency differ from it — it does not mark the field paid.',
      content: {
        'application/json': {
          schema: z
            .object({ received: z.literal(true), outcome: z.enum(['applied', 'unchanged', 'ignored', 'not_counted', 'duplicate']) })
            .openapi('PaymentsWebhookReceipt'),
        },
      },
    },
    ...errorResponses([400, 404, 409, 413]),
  },
});

// ——— Recurring payments (POST /api/payments/subscribe; docs/payments.md › Recurring payments) ———

export const subscribeBody = z.object({
  submission_id: z
    .number({ error: 'must be the integer id of a submission' })
    .int('must be the integer id of a submission')
    .positive('must be the integer id of a submission'),
  submitter_id: z
    .number({ error: 'must be the integer id of one of the submission’s submitters' })
    .int('must be the integer id of one of the submission’s submitters')
    .positive('must be the integer id of one of the submission’s submitters')
    .optional()
    .openapi({ description: 'The signer whose completion starts it. Default: the submission’s last signer.' }),
  price: z.union([z.number(), z.string()], { error: 'must be a number in the currency’s major unit, such as 12.50' }).openapi({
    description: 'Per interval, a decimal in the currency’s major unit (12.50 EUR), like payment fields’ amount.',
    example: '12.50',
  }),
  currency: z.string({ error: 'must be an ISO 4217 currency code such as USD or EUR' }).openapi({ example: 'EUR' }),
  interval: z.enum(['day', 'week', 'month', 'year'], { error: 'must be one of day, week, month, year' }),
  trial_days: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(730, 'must be at most 730 days (Stripe’s limit)')
    .optional(),
  description: z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
});

export const paymentSubscriptionSchema = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int(),
    submitter_id: z.number().int(),
    status: z.enum(['scheduled', 'incomplete', 'trialing', 'active', 'past_due', 'canceled', 'failed']).openapi({
      description:
        '`scheduled` until its signer completes and it is started in Stripe (also while a failed start waits for its retry); then Stripe’s status ' +
        '(`incomplete`, `trialing`, `active`, `past_due`) and finally `canceled`. `failed`: it could not be started after 10 attempts (`last_error`).',
    }),
    price: z.string().openapi({ description: 'Per interval, in the major unit.', example: '12.50' }),
    amount: z.number().int().openapi({ description: 'The same in the currency’s minor unit, as Stripe charges it.', example: 1250 }),
    currency: z.string().openapi({ example: 'EUR' }),
    interval: z.enum(['day', 'week', 'month', 'year']),
    trial_days: z.number().int().nullable(),
    description: z.string().nullable(),
    stripe_subscription_id: z.string().nullable().openapi({ description: 'Once started, in the account’s Stripe.', example: 'sub_1Q…' }),
    start_attempts: z.number().int().openapi({ description: 'Failed attempts to start it.' }),
    last_error: z.string().nullable().openapi({ description: 'Why the last attempt to start it failed.' }),
    next_attempt_at: z.string().nullable().openapi({ description: 'When the next attempt is due after a failed one.' }),
    started_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PaymentSubscription');

/** The `data` of payment.* webhook events, registered as a component for the document (docs/webhooks.md › Payment events). */
export const paymentEventDataSchema = z
  .object({
    payment: z.object({
      id: z.number().int().openapi({ description: 'The payment field’s payment, or the recurring payment (kind subscription).' }),
      kind: z.enum(['field', 'subscription']),
      status: z
        .string()
        .openapi({ description: 'Field: pending, paid, failed, canceled. Recurring: trialing, active, past_due, canceled, failed, …' }),
      amount: z.number().int().openapi({ description: 'Minor units (cents).', example: 2500 }),
      currency: z.string().openapi({ example: 'EUR' }),
      description: z.string().nullable(),
      reference: z
        .string()
        .nullable()
        .openapi({ description: 'Stripe: cs_… when a checkout starts, pi_… once paid; sub_… for a recurring payment.' }),
      invoice: z.string().nullable().openapi({ description: 'Stripe invoice (in_…) of a recurring payment’s succeeded / failed.' }),
      failure_message: z.string().nullable(),
      field: z.object({ uuid: z.string(), name: z.string() }).nullable(),
      interval: z.string().nullable(),
      trial_days: z.number().int().nullable(),
    }),
    submission: z.object({ id: z.number().int(), slug: z.string(), status: z.string(), template_id: z.string() }),
    submitter: z.object({ id: z.number().int(), uuid: z.string(), email: z.string(), name: z.string(), role: z.string() }).nullable(),
    template: z.object({ id: z.string(), name: z.string() }),
  })
  .openapi('PaymentEventData', {
    description: 'The `data` of `payment.created`, `payment.succeeded`, `payment.failed` and `payment.canceled` webhook events.',
  });

export const subscribe = tenantRoute(
  { scopes: ['submissions:write'], idempotent: true, errors: [404, 409] },
  {
    method: 'post',
    path: '/payments/subscribe',
    tags: ['Payments'],
    summary: 'Link a recurring payment to a submission',
    description:
      'Charged through the account’s own Stripe keys (`PUT /api/settings/payments`). It is started — a Stripe subscription billed by ' +
      'invoice, with the trial if any — once its submitter completes, by the every-minute cron; a failed start is retried with backoff ' +
      'and never holds up the submission. Read its state with `GET /api/payments/subscriptions/{id}`. Webhook events: `payment.created` ' +
      'when started, `payment.succeeded` / `payment.failed` per invoice, `payment.canceled` when the Stripe subscription ends ' +
      '(data: `PaymentEventData`). One per submission: another call answers 409.',
    request: { body: { required: true, content: { 'application/json': { schema: subscribeBody } } } },
    responses: {
      201: { description: 'The recurring payment, scheduled.', content: { 'application/json': { schema: paymentSubscriptionSchema } } },
    },
  },
);

export const getSubscription = tenantRoute(
  { scopes: ['submissions:read'] },
  {
    method: 'get',
    path: '/payments/subscriptions/{id}',
    tags: ['Payments'],
    summary: 'A recurring payment and its state',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The recurring payment.', content: { 'application/json': { schema: paymentSubscriptionSchema } } } },
  },
);
