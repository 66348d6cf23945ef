// Stripe calls made with an account's own key (no SDK: form-encoded POSTs, stripe.com/docs/api).
import { PaymentProcessorError, type StripeConfig } from '../billing/stripe-checkout';

export async function postStripeForm<T extends object>(config: StripeConfig, path: string, form: URLSearchParams): Promise<T & { id: string }> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Stripe-Version': '2024-06-20' },
      body: form,
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new PaymentProcessorError('The payment processor could not be reached; try again shortly.', (err as Error).message);
  }
  const body = (await response.json().catch(() => null)) as (T & { id?: string; error?: { message?: string } }) | null;
  if (!response.ok || !body?.id) {
    throw new PaymentProcessorError(`The payment processor refused the request (HTTP ${response.status}); try again later or contact the sender.`, body?.error?.message);
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
