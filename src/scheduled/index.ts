// Cron Trigger (every minute): the safety nets behind the queues — re-enqueue lost or abandoned outbound
// messages, expire due submissions, send scheduled reminders, erase submissions past their retention, complete pending submissions whose every submitter has completed,
// re-enqueue completed submissions still unsealed after 10 minutes, start recurring payments whose signer completed,
// drain the webhook outbox, re-wake stranded deliveries, prune rows past their retention and delete
// signing-page uploads no form kept, move audit events past 90 days to R2, and delete the rows an
// account left on its old shard, and refresh custom domains' pending certificate statuses. All are
// idempotent, so an overlap with the queue consumers changes nothing. Each step runs on its own: one that
// throws is logged and the others still run, since a single poisoned row must not stop expiry or sealing.
import { shardScopes, type ShardScope } from '../db/shards';
import type { Bindings } from '../env';
import { drainOutbox } from '../services/webhooks/fan-out';
import { requestDrain } from '../services/webhooks/queue';
import { requeueStrandedDeliveries } from '../services/webhooks/sweep';
import { archiveAuditEvents } from './audit-archive';
import { completeLeftPendingSubmissions } from './completion-sweep';
import { expireDueSubmissions } from '../services/submissions/expire-submissions';
import { sweepMessages } from './messages-sweep';
import { sendDueReminders } from '../services/submissions/scheduled-reminders';
import { purgeExpiredSubmissions } from '../services/submissions/purge-submissions';
import { requeueStalledBulkChunks } from './bulk-send-sweep';
import { pruneExpiredRows } from './retention';
import { sweepUnsealed } from './sealing-sweep';
import { deleteAbandonedUploads } from './upload-cleanup';
import { startDuePaymentSubscriptions } from '../services/payments/recurring-payments';
import { deleteMovedAccountRows } from './moved-accounts';
import { controlDb } from '../db/shards';
import type { Db } from '../db/client';
import { deleteStaleSessions } from '../services/identity/sessions';
import { deleteSpentPasswordTokens } from '../services/identity/password-tokens';
import { deleteLapsedClaims, refreshPendingCertificates } from '../services/custom-domains/custom-domains';

export type CronStep = { name: string; run(scope: ShardScope, now: number): Promise<unknown> };

/**
 * In order, on each shard. The steps that write events (expiry; the sealing sweep only enqueues) come
 * before the drain, so their events are fanned out in the same run.
 */
export const CRON_STEPS: readonly CronStep[] = [
  { name: 'stalled messages', run: ({ db, queues }, now) => sweepMessages(db, queues.messages, now) },
  { name: 'stalled bulk sends', run: (scope, now) => requeueStalledBulkChunks(scope, now) },
  { name: 'submission expiry', run: (scope, now) => expireDueSubmissions(scope, new Date(now)) },
  // After expiry: a signer whose submission expired in this run is not reminded of it.
  { name: 'scheduled reminders', run: (scope, now) => sendDueReminders(scope, now) },
  { name: 'submissions left pending', run: (scope) => completeLeftPendingSubmissions(scope) },
  { name: 'unsealed submissions', run: (scope, now) => sweepUnsealed(scope, now) },
  // Before the drain: payment.created of the recurring payments it starts goes out in the same run.
  { name: 'recurring payments to start', run: (scope, now) => startDuePaymentSubscriptions(scope, now) },
  {
    name: 'webhook outbox drain',
    async run({ db, queues }, now) {
      const drained = await drainOutbox(db, queues.webhooks, now);
      if (drained.more) await requestDrain(queues.webhooks);
    },
  },
  { name: 'stranded webhook deliveries', run: ({ db, queues }, now) => requeueStrandedDeliveries(db, queues.webhooks, now) },
  { name: 'retention', run: (scope, now) => pruneExpiredRows(scope, now) },
  { name: 'submissions past their retention', run: (scope, now) => purgeExpiredSubmissions(scope, now) },
  { name: 'abandoned signing uploads', run: (scope, now) => deleteAbandonedUploads(scope, now) },
  { name: 'audit archive', run: ({ db, env }, now) => archiveAuditEvents(db, env.FILES, now) },
  { name: 'rows of moved accounts', run: (scope, now) => deleteMovedAccountRows(scope, now) },
  // Control rows: once per run, with shard 0's scope (at most 20 Cloudflare lookups a minute).
  {
    name: 'custom domain certificates',
    run: async ({ shard, control, env }) => (shard === 0 ? refreshPendingCertificates(control, env) : 0),
  },
];

export type ControlCronStep = { name: string; run(control: Db, now: number): Promise<unknown> };

/** Once per run on the control database (not per shard): what sign-in leaves behind (500 rows a table at most) and lapsed domain claims (100). */
export const CONTROL_CRON_STEPS: readonly ControlCronStep[] = [
  { name: 'ended sessions', run: (control, now) => deleteStaleSessions(control, now) },
  { name: 'used or expired password links', run: (control, now) => deleteSpentPasswordTokens(control, now) },
  { name: 'lapsed custom domain claims', run: (control, now) => deleteLapsedClaims(control, now) },
];

async function runOnControl(env: Bindings, now: number, steps: readonly ControlCronStep[]): Promise<{ name: string; error: unknown }[]> {
  const failed: { name: string; error: unknown }[] = [];
  const control = controlDb(env);
  for (const step of steps) {
    try {
      await step.run(control, now);
    } catch (error) {
      console.error(`cron step "${step.name}" failed on the control database:`, error);
      failed.push({ name: `${step.name} (control)`, error });
    }
  }
  return failed;
}

/** Runs the steps in order on one shard, each isolated from the others' failures; returns the failures. */
async function runOnShard(scope: ShardScope, now: number, steps: readonly CronStep[]): Promise<{ name: string; error: unknown }[]> {
  const failed: { name: string; error: unknown }[] = [];
  for (const step of steps) {
    try {
      await step.run(scope, now);
    } catch (error) {
      console.error(`cron step "${step.name}" failed on shard ${scope.shard}:`, error);
      failed.push({ name: `${step.name} (shard ${scope.shard})`, error });
    }
  }
  return failed;
}

/**
 * Runs every step in order on every shard, each isolated from the others' failures. Rejects afterwards,
 * naming the failed steps, so the invocation still shows as failed in the Cron Trigger's log.
 */
export async function handleScheduled(
  env: Bindings,
  now: number = Date.now(),
  steps: readonly CronStep[] = CRON_STEPS,
  controlSteps: readonly ControlCronStep[] = CONTROL_CRON_STEPS,
): Promise<void> {
  // Every shard at once: a slow or failing shard delays only its own accounts (docs/scaling.md).
  const failed = (
    await Promise.all([runOnControl(env, now, controlSteps), ...shardScopes(env).map((scope) => runOnShard(scope, now, steps))])
  ).flat();
  if (failed.length > 0) {
    throw new AggregateError(
      failed.map((f) => f.error),
      `cron steps failed: ${failed.map((f) => f.name).join(', ')}`,
    );
  }
}
