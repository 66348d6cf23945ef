// X-Webhook-Signature: `sha256=` + hex HMAC-SHA256 of the exact body bytes, keyed with the endpoint
// secret (spec › Events › Headers on every delivery). Receivers verify over the raw bytes they got.
import { timingSafeEqualString, toHex } from '../../lib/crypto';

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export async function signWebhookBody(secret: string, body: string | Uint8Array): Promise<string> {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return `sha256=${toHex(await crypto.subtle.sign('HMAC', await hmacKey(secret), bytes))}`;
}

/** What a receiver does; kept here so docs/webhooks.md and the tests describe the same algorithm. */
export async function verifyWebhookSignature(secret: string, body: string | Uint8Array, header: string | null): Promise<boolean> {
  if (!header) return false;
  return timingSafeEqualString(await signWebhookBody(secret, body), header.trim());
}
