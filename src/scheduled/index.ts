// Cron Trigger (every minute): the safety nets behind the queues — re-enqueue lost or abandoned outbound
// messages, expire due submissions, complete pending submissions whose every submitter has completed,
// re-enqueue completed submissions still unsealed after 10 minutes,
// drain the webhook outbox, re-wake stranded deliveries, prune rows past their retention and delete
// signing-page uploads no form kept, and move audit events past 90 days to R2. All are
// idempotent, so an overlap with the queue consumers changes nothing. Each step runs on its own: one that
// throws is logged and the others still run, since a single poisoned row must not stop expiry or sealing.
import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain } from '../services/webhooks/queue';
import { requeueStrandedDeliveries } from '../services/webhooks/sweep';
import { archiveAuditEvents } from './audit-archive';
import { completeLeftPendingSubmissions } from './completion-sweep';
import { expireDueSubmissions } from './expire-submissions';
import { sweepMessages } from './messages-sweep';
import { pruneExpiredRows } from './retention';
import { sweepUnsealed } from './sealing-sweep';
import { deleteAbandonedUploads } from './upload-cleanup';

export type CronStep = { name: string; run(env: Bindings, now: number): Promise<unknown> };

/**
 * In order. The steps that write events (expiry; the sealing sweep only enqueues) come before the drain,
 * so their events are fanned out in the same run.
 */
export const CRON_STEPS: readonly CronStep[] = [
  { name: 'stalled messages', run: (env, now) => sweepMessages(createDb(env.DB), env.MESSAGES_QUEUE, now) },
  { name: 'submission expiry', run: (env, now) => expireDueSubmissions(env, new Date(now)) },
  { name: 'submissions left pending', run: (env) => completeLeftPendingSubmissions(env) },
  { name: 'unsealed submissions', run: (env, now) => sweepUnsealed(env, now) },
  {
    name: 'webhook outbox drain',
    async run(env, now) {
      const drained = await drainOutbox(createDb(env.DB), env.WEBHOOK_QUEUE, now);
      if (drained.more) await requestDrain(env.WEBHOOK_QUEUE);
    },
  },
  { name: 'stranded webhook deliveries', run: (env, now) => requeueStrandedDeliveries(createDb(env.DB), env.WEBHOOK_QUEUE, now) },
  { name: 'retention', run: (env, now) => pruneExpiredRows(env, now) },
  { name: 'abandoned signing uploads', run: (env, now) => deleteAbandonedUploads(env, now) },
  { name: 'audit archive', run: (env, now) => archiveAuditEvents(createDb(env.DB), env.FILES, now) },
];

/**
 * Runs every step in order, each isolated from the others' failures. Rejects afterwards, naming the
 * failed steps, so the invocation still shows as failed in the Cron Trigger's log.
 */
export async function handleScheduled(env: Bindings, now: number = Date.now(), steps: readonly CronStep[] = CRON_STEPS): Promise<void> {
  const failed: { name: string; error: unknown }[] = [];
  for (const step of steps) {
    try {
      await step.run(env, now);
    } catch (error) {
      console.error(`cron step "${step.name}" failed:`, error);
      failed.push({ name: step.name, error });
    }
  }
  if (failed.length > 0) {
    throw new AggregateError(
      failed.map((f) => f.error),
      `cron steps failed: ${failed.map((f) => f.name).join(', ')}`,
    );
  }
}
