// The payment-processor client: Stripe Checkout Sessions over fetch (no SDK; one form-encoded POST).
import type { BillingInterval, Plan } from '../../lib/plans';

export type StripeConfig = {
  secretKey: string;
  /** https://api.stripe.com, or a local imitation in tests. */
  apiBase: string;
  timeoutMs?: number;
};

export type CheckoutSessionInput = {
  plan: Plan;
  interval: BillingInterval;
  accountId: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
};

/**
 * Stripe answered with an error or not at all. `message` is for the caller; `detail` (Stripe's own
 * words, which may describe our configuration) is for the log only.
 */
export class PaymentProcessorError extends Error {
  override readonly name = 'PaymentProcessorError';
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

const STRIPE_INTERVAL: Record<BillingInterval, 'month' | 'year'> = { monthly: 'month', yearly: 'year' };

/** Stripe's form encoding of the session: nested keys in brackets (stripe.com/docs/api/checkout/sessions/create). */
export function checkoutSessionForm(input: CheckoutSessionInput): URLSearchParams {
  const price = input.plan.priceCents?.[input.interval];
  if (price === undefined) throw new PaymentProcessorError(`The ${input.plan.name} plan is not for sale.`);
  const plan = input.plan.name;
  return new URLSearchParams({
    mode: 'subscription',
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': 'usd',
    'line_items[0][price_data][unit_amount]': String(price),
    'line_items[0][price_data][recurring][interval]': STRIPE_INTERVAL[input.interval],
    'line_items[0][price_data][product_data][name]': `${plan.charAt(0).toUpperCase()}${plan.slice(1)} plan`,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    client_reference_id: String(input.accountId),
    customer_email: input.customerEmail,
    // Whoever applies the paid plan (a Stripe webhook) reads the account and plan from here.
    'metadata[account_id]': String(input.accountId),
    'metadata[plan]': plan,
    'subscription_data[metadata][account_id]': String(input.accountId),
    'subscription_data[metadata][plan]': plan,
  });
}

export async function createCheckoutSession(config: StripeConfig, input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase.replace(/\/+$/, '')}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${config.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Stripe-Version': '2024-06-20',
      },
      body: checkoutSessionForm(input),
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new PaymentProcessorError('The payment processor could not be reached; try again shortly.', (err as Error).message);
  }
  const body = (await response.json().catch(() => null)) as { id?: string; url?: string; error?: { message?: string } } | null;
  if (!response.ok || !body?.url || !body.id) {
    throw new PaymentProcessorError(
      `The payment processor refused to start checkout (HTTP ${response.status}); try again later or contact support.`,
      body?.error?.message,
    );
  }
  return { id: body.id, url: body.url };
}
