// Cron Trigger (every minute): the safety nets behind the queues — drain the webhook outbox, re-wake
// stranded deliveries, re-enqueue lost or abandoned outbound messages, expire due submissions and re-enqueue
// completed submissions still unsealed after 10 minutes, and complete pending submissions whose every submitter
// has completed. All are idempotent, so an
// overlap with the queue consumers changes nothing.
import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain } from '../services/webhooks/queue';
import { requeueStrandedDeliveries } from '../services/webhooks/sweep';
import { completeLeftPendingSubmissions } from './completion-sweep';
import { expireDueSubmissions } from './expire-submissions';
import { sweepMessages } from './messages-sweep';
import { sweepUnsealed } from './sealing-sweep';

export async function handleScheduled(env: Bindings, now: number = Date.now()): Promise<void> {
  const db = createDb(env.DB);
  const drained = await drainOutbox(db, env.WEBHOOK_QUEUE, now);
  if (drained.more) await requestDrain(env.WEBHOOK_QUEUE);
  await requeueStrandedDeliveries(db, env.WEBHOOK_QUEUE, now);
  await sweepMessages(db, env.MESSAGES_QUEUE, now);
  await expireDueSubmissions(env, new Date(now));
  await completeLeftPendingSubmissions(env);
  await sweepUnsealed(env, now);
}
