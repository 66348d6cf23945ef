// Reads one Stripe webhook delivery, for both the plan webhook and each account's payments webhook:
// the capped raw body, its Stripe-Signature, then the JSON and the event's shape, in that order.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../lib/errors';
import { readRequestText } from '../../lib/request';
import type { StripeEvent } from './stripe-events';
import { verifyStripeSignature } from './stripe-signature';

/** Stripe event payloads are a few KB; 1 MB leaves room for the largest objects Stripe embeds. */
export const STRIPE_WEBHOOK_BODY_BYTES = 1024 * 1024;
export const STRIPE_WEBHOOK_TOO_LARGE = `The webhook body is larger than ${STRIPE_WEBHOOK_BODY_BYTES / 1024 / 1024} MB; no Stripe event is that large.`;

/** The parts of a Stripe event the webhook reads; anything else in the event is ignored. */
export const stripeEventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_1PqR2sT3uV4wX5yZ' }),
    type: z.string().openapi({ example: 'checkout.session.completed' }),
    created: z.number().int().nonnegative().optional().openapi({
      description: 'When Stripe created the event (Unix seconds); an event older than the last one applied changes nothing.',
      example: 1764057600,
    }),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .openapi('StripeEvent');

/**
 * The event of a delivery signed with `secret`. The signature is checked over the raw body before
 * anything is parsed; a body over the cap is a 413, a bad signature, bad JSON or a body that is not an
 * event a 400 with a sentence.
 */
export async function readStripeDelivery(request: Request, secret: string): Promise<StripeEvent> {
  const rawBody = await readRequestText(request, STRIPE_WEBHOOK_BODY_BYTES, STRIPE_WEBHOOK_TOO_LARGE);
  const check = await verifyStripeSignature(secret, rawBody, request.headers.get('Stripe-Signature') ?? undefined);
  if (!check.ok) throw new ApiError(400, check.reason);
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.');
  }
  const event = stripeEventSchema.safeParse(parsed);
  if (!event.success) throw new ApiError(400, 'The body is not a Stripe event: it needs id, type and data.object.');
  return event.data;
}
