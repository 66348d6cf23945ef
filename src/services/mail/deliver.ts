// Delivers one queued message; called by the messages queue consumer. Idempotent: a message already
// sent (or being sent by another consumer) is left alone.
import type { Db } from '../../db/client';
import type { Message } from '../../db/schema/index';
import { claimAttempt, getMessage, markAttemptFailed, markSent } from '../../db/queries/messages';
import { PermanentDeliveryError, transportFor, type MailEnv } from './transports';

/** Attempts before a message is failed for good; the queue's own max_retries is set higher. */
export const MAX_ATTEMPTS = 5;
/**
 * Kinds whose text carries a one-time secret, with the pattern it is written in: the row keeps it only
 * until it is delivered. A verification code is six digits standing alone (compose.ts); a password link
 * carries its token in `token=` (src/services/identity/password-emails.ts).
 */
const SECRETS: Record<string, RegExp> = {
  verification_code: /\b\d{6}\b/g,
  password_invite: /(?<=token=)[0-9A-Za-z]+/g,
  password_reset: /(?<=token=)[0-9A-Za-z]+/g,
};

/**
 * The stored text and html of a delivered message, with any one-time code replaced. The outbox transport
 * (development) keeps the code: there the row itself is the inbox the developer reads it from.
 */
export function redactedContent(
  message: Pick<Message, 'kind' | 'text' | 'html'>,
  transport: string,
): Pick<Message, 'text' | 'html'> | undefined {
  const secret = SECRETS[message.kind];
  if (!secret || transport === 'outbox') return undefined;
  return { text: message.text.replace(secret, '[redacted]'), html: message.html?.replace(secret, '[redacted]') ?? null };
}

/**
 * A text message to a signer (SMS or WhatsApp) leaves a row in their submission's audit trail when the
 * transport accepts it (issue 31 › 7): the evidence that the code or link went to their phone, with the
 * provider's message id. Emails do not: their sending is already the `sent` row of the invitation.
 */
function deliveryTrail(message: Message, transport: string, providerId: string | null) {
  if (message.channel !== 'sms' && message.channel !== 'whatsapp') return undefined;
  return {
    message,
    action: 'message_accepted' as const,
    data: { channel: message.channel, kind: message.kind, transport, provider_id: providerId },
  };
}

/** Delay before attempt n+1, in seconds: 30 s, 2 min, 10 min, 30 min. */
const BACKOFF_SECONDS = [30, 120, 600, 1800];

export type DeliveryOutcome = { status: 'sent' | 'skipped' | 'failed' } | { status: 'retry'; delaySeconds: number };

export async function deliverMessage(db: Db, env: MailEnv, id: number, now = new Date()): Promise<DeliveryOutcome> {
  // A plain select: the relational builder cost several times its SQL building per message, and a bulk
  // create's 100 invitations are delivered in the isolate that serves the next create (issue 30 › 3).
  const message = await getMessage(db, id);
  if (!message || message.status !== 'queued') return { status: 'skipped' };

  let transport;
  try {
    transport = transportFor(env, message.channel);
  } catch (err) {
    await markAttemptFailed(db, id, (err as Error).message, true);
    return { status: 'failed' };
  }
  const claimed = await claimAttempt(db, id, transport.name, now.toISOString());
  if (!claimed) return { status: 'skipped' };

  try {
    const { providerId } = await transport.send(claimed);
    await markSent(
      db,
      id,
      providerId,
      new Date().toISOString(),
      redactedContent(claimed, transport.name),
      deliveryTrail(claimed, transport.name, providerId),
    );
    return { status: 'sent' };
  } catch (err) {
    const final = err instanceof PermanentDeliveryError || claimed.attempts >= MAX_ATTEMPTS;
    await markAttemptFailed(db, id, (err as Error).message || String(err), final);
    if (final) return { status: 'failed' };
    return { status: 'retry', delaySeconds: BACKOFF_SECONDS[Math.min(claimed.attempts - 1, BACKOFF_SECONDS.length - 1)] };
  }
}
