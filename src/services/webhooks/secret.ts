// Endpoint secrets: generated when a create omits one, and the rule a caller-chosen one must meet.
import { randomBase62 } from '../../lib/random';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 base62 characters (≈190 bits). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBase62(32);
}

/**
 * The secret travels in the X-Webhook-Secret header, so it must be a valid header value: visible ASCII
 * only (no spaces, no CR/LF). 16 characters is the least that still makes a useful HMAC key.
 */
export const SECRET_PATTERN = /^[\x21-\x7e]{16,128}$/;
