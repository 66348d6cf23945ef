// Verifies the Stripe-Signature header of a webhook delivery (stripe.com/docs/webhooks#verify-manually):
// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint secret>[,v1=…]`.
import { timingSafeEqualString, toHex } from '../../lib/crypto';

const encoder = new TextEncoder();

/** Stripe's own libraries default to 5 minutes between signing and verifying. */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

export type StripeSignatureCheck = { ok: true } | { ok: false; reason: string };

export async function stripeSignature(secret: string, timestamp: number | string, rawBody: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${rawBody}`)));
}

/**
 * Accepts the delivery when one of the `v1` signatures matches (several appear while Stripe rolls an
 * endpoint secret) and `t` is within the tolerance of now, in either direction, so a captured
 * delivery cannot be replayed later. Every candidate is compared in constant time; `v0` and unknown
 * schemes are ignored, as Stripe's libraries do.
 */
export async function verifyStripeSignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowMs = Date.now(),
  toleranceS = STRIPE_SIGNATURE_TOLERANCE_S,
): Promise<StripeSignatureCheck> {
  if (!header) return { ok: false, reason: 'The Stripe-Signature header is missing.' };
  let timestamp: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const scheme = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (scheme === 't') timestamp = value;
    else if (scheme === 'v1') candidates.push(value);
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || candidates.length === 0) {
    return { ok: false, reason: 'The Stripe-Signature header must carry t=<timestamp> and at least one v1=<signature>.' };
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceS) {
    return {
      ok: false,
      reason: `The Stripe-Signature timestamp is more than ${toleranceS} seconds from now; the delivery is refused as a possible replay.`,
    };
  }
  const expected = await stripeSignature(secret, timestamp, rawBody);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqualString(expected, candidate.toLowerCase()) || matched;
  return matched ? { ok: true } : { ok: false, reason: 'No v1 signature in the Stripe-Signature header matches this body.' };
}
