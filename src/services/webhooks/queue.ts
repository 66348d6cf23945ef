// Sending on the webhooks queue (its messages: src/env.ts › WebhookMessage). They only wake the consumer;
// D1 holds the state (what is due, which attempt), so a lost, duplicated or early message changes nothing but latency.
import type { WebhookQueue } from '../../env';

/** Cloudflare Queues refuse delays over 12 hours; local dev does not, so the clamp lives here. */
export const QUEUE_MAX_DELAY_SECONDS = 43_200;
/** Messages per sendBatch call (the Queues limit). */
const SEND_BATCH_LIMIT = 100;

export function clampDelaySeconds(seconds: number): number {
  return Math.min(QUEUE_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
}

export async function enqueueDeliveries(queue: WebhookQueue, deliveryUuids: readonly string[], delaySeconds = 0): Promise<void> {
  const delay = clampDelaySeconds(delaySeconds);
  for (let i = 0; i < deliveryUuids.length; i += SEND_BATCH_LIMIT) {
    await queue.sendBatch(
      deliveryUuids.slice(i, i + SEND_BATCH_LIMIT).map((deliveryUuid) => ({ body: { kind: 'deliver', deliveryUuid } as const })),
      delay ? { delaySeconds: delay } : undefined,
    );
  }
}

/** Delayed wake-ups, each with its own delay, in as few sends as the limits allow. */
export async function scheduleWakeUps(
  queue: WebhookQueue,
  wakeUps: readonly { deliveryUuid: string; delaySeconds: number }[],
): Promise<void> {
  for (let i = 0; i < wakeUps.length; i += SEND_BATCH_LIMIT) {
    await queue.sendBatch(
      wakeUps.slice(i, i + SEND_BATCH_LIMIT).map(({ deliveryUuid, delaySeconds }) => ({
        body: { kind: 'deliver', deliveryUuid } as const,
        delaySeconds: clampDelaySeconds(delaySeconds),
      })),
    );
  }
}

export async function requestDrain(queue: WebhookQueue): Promise<void> {
  await queue.send({ kind: 'drain' });
}

/**
 * Wakes the fan-out after a background job (sealing, expiry) wrote events, as `outboxDrain()` does after
 * an API write, so their webhooks go out within seconds. Best effort: a lost wake-up only delays the
 * events until the cron's drain, so a failed send is logged and never fails the job that wrote them.
 */
export async function wakeFanOut(queue: WebhookQueue, writer: string): Promise<void> {
  await requestDrain(queue).catch((err) => console.error(`${writer}: webhook fan-out wake-up failed`, err));
}
