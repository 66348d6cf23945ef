// Delivery signatures, both keyed with the endpoint secret's UTF-8 bytes:
// - X-Webhook-Signature: `sha256=` + hex HMAC-SHA256 of the exact body bytes (spec › Events › Headers on
//   every delivery). Receivers verify over the raw bytes they got.
// - Standard Webhooks (standardwebhooks.com, issue 32): `webhook-signature: v1,<base64 HMAC-SHA256 of
//   "<webhook-id>.<webhook-timestamp>.<body>">`, which the `standardwebhooks` libraries verify as
//   `new Webhook(secret, { format: 'raw' })`.
import { toBase64 } from '../../lib/base64';
import { timingSafeEqualString, toHex } from '../../lib/crypto';

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

async function specSignature(key: CryptoKey, body: Uint8Array): Promise<string> {
  return `sha256=${toHex(await crypto.subtle.sign('HMAC', key, body))}`;
}

export async function signWebhookBody(secret: string, body: string | Uint8Array): Promise<string> {
  return specSignature(await hmacKey(secret), bytesOf(body));
}

/** What a receiver does; kept here so docs/webhooks.md and the tests describe the same algorithm. */
export async function verifyWebhookSignature(secret: string, body: string | Uint8Array, header: string | null): Promise<boolean> {
  if (!header) return false;
  return timingSafeEqualString(await signWebhookBody(secret, body), header.trim());
}

export type SignedHeaders = {
  'X-Webhook-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Both signatures of one attempt, from one key import. `deliveryId` is the delivery uuid (unchanged across
 * retries, as Standard Webhooks asks of `webhook-id`); `timestampSeconds` is when this attempt is made.
 */
export async function signDelivery(secret: string, deliveryId: string, timestampSeconds: number, body: string): Promise<SignedHeaders> {
  const key = await hmacKey(secret);
  const bytes = encoder.encode(body);
  const timestamp = String(timestampSeconds);
  const prefix = encoder.encode(`${deliveryId}.${timestamp}.`);
  const signedContent = new Uint8Array(prefix.length + bytes.length);
  signedContent.set(prefix);
  signedContent.set(bytes, prefix.length);
  const [spec, standard] = await Promise.all([specSignature(key, bytes), crypto.subtle.sign('HMAC', key, signedContent)]);
  return {
    'X-Webhook-Signature': spec,
    'webhook-id': deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${toBase64(new Uint8Array(standard))}`,
  };
}
