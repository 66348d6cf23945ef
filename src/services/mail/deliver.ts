// Delivers one queued message; called by the messages queue consumer. Idempotent: a message already
// sent (or being sent by another consumer) is left alone.
import type { Db } from '../../db/client';
import { claimAttempt, markAttemptFailed, markSent } from '../../db/queries/messages';
import { PermanentDeliveryError, transportFor, type MailEnv } from './transports';

/** Attempts before a message is failed for good; the queue's own max_retries is set higher. */
export const MAX_ATTEMPTS = 5;
/** Delay before attempt n+1, in seconds: 30 s, 2 min, 10 min, 30 min. */
const BACKOFF_SECONDS = [30, 120, 600, 1800];

export type DeliveryOutcome = { status: 'sent' | 'skipped' | 'failed' } | { status: 'retry'; delaySeconds: number };

export async function deliverMessage(db: Db, env: MailEnv, id: number, now = new Date()): Promise<DeliveryOutcome> {
  const message = await db.query.messages.findFirst({ where: (m, { eq }) => eq(m.id, id) });
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
    await markSent(db, id, providerId, new Date().toISOString());
    return { status: 'sent' };
  } catch (err) {
    const final = err instanceof PermanentDeliveryError || claimed.attempts >= MAX_ATTEMPTS;
    await markAttemptFailed(db, id, (err as Error).message || String(err), final);
    if (final) return { status: 'failed' };
    return { status: 'retry', delaySeconds: BACKOFF_SECONDS[Math.min(claimed.attempts - 1, BACKOFF_SECONDS.length - 1)] };
  }
}
