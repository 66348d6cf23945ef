// Text message status callbacks (issue 31 › 7): the Twilio-compatible provider posts a message's status
// to the StatusCallback URL it was sent with (smsStatusCallbackUrl), signed as Twilio signs requests —
// X-Twilio-Signature is the Base64 HMAC-SHA1, keyed with the account's auth token, of the full URL
// followed by every POST parameter's name and value, sorted by name. A delivered or failed message
// leaves a row on the submitter's trail, beside the `message_accepted` its sending left.
import type { Db } from '../../db/client';
import { getMessage, recordDeliveryStatus } from '../../db/queries/messages';
import { timingSafeEqualString } from '../../lib/crypto';

/** Twilio's signature of a request to `url` with these form parameters. */
export async function twilioSignature(authToken: string, url: string, params: Record<string, string>): Promise<string> {
  const signed =
    url +
    Object.keys(params)
      .sort()
      .map((name) => name + params[name])
      .join('');
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signed)));
  return btoa(String.fromCharCode(...mac));
}

export async function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature) return false;
  return timingSafeEqualString(await twilioSignature(authToken, url, params), signature);
}

/** The trail action a final status records; interim ones (queued, sending, sent, read) record nothing. */
const ACTIONS: Record<string, 'message_delivered' | 'message_failed'> = {
  delivered: 'message_delivered',
  undelivered: 'message_failed',
  failed: 'message_failed',
};

export type StatusOutcome = 'recorded' | 'duplicate' | 'ignored';

/**
 * Applies one verified callback to the message it names: `ignored` for a status that is not final, a
 * message that is not this one (its sid differs) or has no submitter; `duplicate` when that message's
 * status is on the trail already.
 */
export async function applyDeliveryStatus(
  db: Db,
  accountId: number,
  messageId: number,
  params: Record<string, string>,
  at = new Date(),
): Promise<StatusOutcome> {
  const status = params.MessageStatus ?? params.SmsStatus ?? '';
  const action = ACTIONS[status];
  const message = await getMessage(db, messageId);
  if (!action || !message || message.accountId !== accountId || !message.providerId || message.providerId !== params.MessageSid) {
    return 'ignored';
  }
  const data = {
    channel: message.channel,
    kind: message.kind,
    provider_id: message.providerId,
    status,
    ...(action === 'message_failed' ? { error_code: params.ErrorCode ?? null } : {}),
  };
  const recorded = await recordDeliveryStatus(db, message, action, data, at.toISOString());
  return recorded ? 'recorded' : message.submitterId ? 'duplicate' : 'ignored';
}
