// Stripe calls made with an account's own key (no SDK: form-encoded POSTs, stripe.com/docs/api).
import { PaymentProcessorError, type StripeConfig } from '../billing/stripe-checkout';

/**
 * `idempotencyKey`: Stripe answers a retry with the same key (within 24 h) with the first result
 * (stripe.com/docs/api/idempotent_requests), so a retried start creates nothing twice.
 */
export async function postStripeForm<T extends object>(
  config: StripeConfig,
  path: string,
  form: URLSearchParams,
  idempotencyKey?: string,
): Promise<T & { id: string }> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${config.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Stripe-Version': '2024-06-20',
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
      body: form,
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new PaymentProcessorError('The payment processor could not be reached; try again shortly.', (err as Error).message);
  }
  const body = (await response.json().catch(() => null)) as (T & { id?: string; error?: { message?: string } }) | null;
  if (!response.ok || !body?.id) {
    throw new PaymentProcessorError(
      `The payment processor refused the request (HTTP ${response.status}); try again later or contact the sender.`,
      body?.error?.message,
    );
  }
  return body as T & { id: string };
}

export type PaymentCheckoutInput = {
  paymentId: number;
  accountId: number;
  amount: number;
  currency: string;
  name: string;
  description?: string | null;
  customerEmail?: string | null;
  successUrl: string;
  cancelUrl: string;
};

/** A Checkout Session in payment mode for one payment field (stripe.com/docs/api/checkout/sessions/create). */
export function paymentCheckoutForm(input: PaymentCheckoutInput): URLSearchParams {
  const form = new URLSearchParams({
    mode: 'payment',
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': input.currency.toLowerCase(),
    'line_items[0][price_data][unit_amount]': String(input.amount),
    'line_items[0][price_data][product_data][name]': input.name,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    client_reference_id: String(input.paymentId),
    // The webhook finds the payment row from either object Stripe sends about it.
    'metadata[payment_id]': String(input.paymentId),
    'metadata[account_id]': String(input.accountId),
    'payment_intent_data[metadata][payment_id]': String(input.paymentId),
    'payment_intent_data[metadata][account_id]': String(input.accountId),
  });
  if (input.description) form.set('line_items[0][price_data][product_data][description]', input.description);
  if (input.customerEmail) form.set('customer_email', input.customerEmail);
  return form;
}

export function createPaymentCheckout(config: StripeConfig, input: PaymentCheckoutInput) {
  return postStripeForm<{ url?: string }>(config, '/v1/checkout/sessions', paymentCheckoutForm(input));
}

/**
 * Expires an open Checkout Session (stripe.com/docs/api/checkout/sessions/expire), so it can no longer be
 * paid. Stripe refuses a session that is no longer open (already paid or expired): PaymentProcessorError.
 */
export function expireCheckoutSession(config: StripeConfig, sessionId: string) {
  return postStripeForm(config, `/v1/checkout/sessions/${encodeURIComponent(sessionId)}/expire`, new URLSearchParams());
}

export type RecurringPaymentInput = {
  /** Ours, with the account: ids are per shard, so the account id makes the idempotency keys unique. */
  paymentSubscriptionId: number;
  accountId: number;
  amount: number;
  currency: string;
  interval: string;
  trialDays: number | null;
  name: string;
  description: string | null;
  email: string | null;
  customerName: string | null;
};

/**
 * Starts a recurring payment in the account's Stripe: a customer for the signer, a product, and a
 * subscription billed by invoice (collection_method send_invoice: Stripe emails each invoice, since
 * there is no card on file), each call idempotent on our id. Returns Stripe's ids and status.
 */
export async function createRecurringPayment(
  config: StripeConfig,
  input: RecurringPaymentInput,
): Promise<{ customerId: string; subscriptionId: string; status: string }> {
  const key = (step: string) => `payment-subscription-${input.accountId}-${input.paymentSubscriptionId}-${step}`;
  const metadata = {
    'metadata[payment_subscription_id]': String(input.paymentSubscriptionId),
    'metadata[account_id]': String(input.accountId),
  };
  const customerForm = new URLSearchParams(metadata);
  if (input.email) customerForm.set('email', input.email);
  if (input.customerName) customerForm.set('name', input.customerName);
  const customer = await postStripeForm(config, '/v1/customers', customerForm, key('customer'));
  const product = await postStripeForm(config, '/v1/products', new URLSearchParams({ name: input.name, ...metadata }), key('product'));
  const form = new URLSearchParams({
    customer: customer.id,
    'items[0][price_data][currency]': input.currency.toLowerCase(),
    'items[0][price_data][unit_amount]': String(input.amount),
    'items[0][price_data][recurring][interval]': input.interval,
    'items[0][price_data][product]': product.id,
    collection_method: 'send_invoice',
    days_until_due: '7',
    ...metadata,
  });
  if (input.trialDays) form.set('trial_period_days', String(input.trialDays));
  if (input.description) form.set('description', input.description);
  const subscription = await postStripeForm<{ status?: string }>(config, '/v1/subscriptions', form, key('subscription'));
  return { customerId: customer.id, subscriptionId: subscription.id, status: String(subscription.status ?? 'incomplete') };
}
