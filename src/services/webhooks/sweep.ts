// The cron safety net: re-sends wake-ups for pending attempts that are overdue and unheld — their message
// was lost between a D1 commit and the queue send, or their consumer died mid-attempt.
import type { Db } from '../../db/client';
import { strandedDeliveryUuids } from '../../db/queries/webhook-deliveries';
import { LEASE_MS } from './deliver';
import { enqueueDeliveries } from './queue';
import type { WebhookQueue } from '../../env';

/** An attempt this late was surely missed, not merely still in the queue. */
export const STRANDED_AFTER_MS = 60_000;
const SWEEP_LIMIT = 500;

/** Returns the delivery uuids it woke. */
export async function requeueStrandedDeliveries(db: Db, queue: WebhookQueue, now: number): Promise<string[]> {
  const uuids = await strandedDeliveryUuids(
    db,
    new Date(now - Math.max(STRANDED_AFTER_MS, LEASE_MS)).toISOString(),
    new Date(now).toISOString(),
    SWEEP_LIMIT,
  );
  await enqueueDeliveries(queue, uuids);
  return uuids;
}
