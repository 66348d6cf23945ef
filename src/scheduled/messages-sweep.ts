// Cron safety net for outbound messages: re-enqueues messages whose queue message was lost and
// reclaims attempts abandoned mid-send (a consumer that died). Bounded per run.
import type { Db } from '../db/client';
import { reclaimStalled } from '../db/queries/messages';
import { enqueueMessages } from '../services/mail/outbox';
import type { MessageQueueBody } from '../env';

const QUEUED_GRACE_MS = 2 * 60_000;
const SENDING_TIMEOUT_MS = 10 * 60_000;
const BATCH = 500;

export async function sweepMessages(db: Db, queue: Queue<MessageQueueBody>, now = Date.now()): Promise<number> {
  const ids = await reclaimStalled(
    db,
    new Date(now - QUEUED_GRACE_MS).toISOString(),
    new Date(now - SENDING_TIMEOUT_MS).toISOString(),
    BATCH,
  );
  await enqueueMessages(queue, ids);
  return ids.length;
}
