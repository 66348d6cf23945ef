// Queue consumer for the sealing queue: a thin dispatcher into services/sealing. A failed submission is
// retried (with backoff) on its own; the others in the batch are acknowledged. When its last delivery
// fails too, the failure is recorded on the submission (GET …/documents shows it, POST …/documents/reseal
// starts over) and the message acknowledged. Sealing writes `document.generated` events off the request
// path, so a batch that sealed anything wakes the webhook fan-out, as API writes do. The queue also
// carries thumbnail batches (src/queues/thumbnails.ts): document work off the request path, one at a time.
import type { ShardScope } from '../db/shards';
import { sealSubmission } from '../services/sealing/seal-submission';
import { recordSealingFailure } from '../services/sealing/sealing-status';
import type { SealingQueueBody } from '../env';
import type { ThumbnailQueueBody } from '../env';
import { wakeFanOut } from '../services/webhooks/queue';
import { consumeThumbnailMessage } from './thumbnails';

/** What the sealing queue carries. */
export type DocumentQueueBody = SealingQueueBody | ThumbnailQueueBody;

/** Deliveries of one message: the first and `max_retries` = 10 more (wrangler.toml › signing-service-sealing). */
export const SEALING_MAX_ATTEMPTS = 11;

/** One shard's part of a batch (src/queues/shard-batches.ts). */
export async function consumeSealing(batch: MessageBatch<DocumentQueueBody>, scope: ShardScope): Promise<void> {
  const { db, env } = scope;
  // A run that failed part-way may still have recorded some documents and their events.
  let wroteEvents = false;
  for (const message of batch.messages) {
    if (message.body?.type === 'thumbnails') {
      await consumeThumbnailMessage(message as Message<ThumbnailQueueBody>, scope);
      continue;
    }
    const id = message.body?.type === 'seal' ? Number(message.body.submissionId) : NaN;
    if (!Number.isSafeInteger(id)) {
      console.warn('sealing queue: dropping a message of unknown shape');
      message.ack();
      continue;
    }
    try {
      if ((await sealSubmission(env, scope, id)) === 'sealed') wroteEvents = true;
      message.ack();
    } catch (err) {
      wroteEvents = true;
      console.error(`sealing submission ${id} failed (attempt ${message.attempts} of ${SEALING_MAX_ATTEMPTS}):`, err);
      if (message.attempts < SEALING_MAX_ATTEMPTS) {
        message.retry({ delaySeconds: Math.min(600, 10 * 2 ** message.attempts) });
        continue;
      }
      try {
        await recordSealingFailure(db, id, err);
        message.ack();
      } catch (recordError) {
        console.error(`sealing submission ${id}: the failure could not be recorded:`, recordError);
        message.retry({ delaySeconds: 600 });
      }
    }
  }
  if (wroteEvents) await wakeFanOut(scope.queues.webhooks, 'sealing');
}
