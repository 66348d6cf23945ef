// Cron Trigger (every minute): the safety net behind the queue — drain the outbox and re-wake stranded
// deliveries. Both are idempotent, so an overlap with the queue consumer changes nothing.
import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain } from '../services/webhooks/queue';
import { requeueStrandedDeliveries } from '../services/webhooks/sweep';

export async function handleScheduled(env: Bindings, now: number = Date.now()): Promise<void> {
  const db = createDb(env.DB);
  const drained = await drainOutbox(db, env.WEBHOOK_QUEUE, now);
  if (drained.more) await requestDrain(env.WEBHOOK_QUEUE);
  await requeueStrandedDeliveries(db, env.WEBHOOK_QUEUE, now);
}
