// Queue consumer for the sealing queue: a thin dispatcher into services/sealing. A failed submission is
// retried (with backoff) on its own; the others in the batch are acknowledged. Sealing writes
// `document.generated` events off the request path, so a batch that sealed anything wakes the webhook
// fan-out, as API writes do.
import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { sealSubmission } from '../services/sealing/seal-submission';
import type { SealingQueueBody } from '../services/submissions/submission-state';
import { wakeFanOut } from '../services/webhooks/queue';

export async function consumeSealing(batch: MessageBatch<SealingQueueBody>, env: Bindings): Promise<void> {
  const db = createDb(env.DB);
  // A run that failed part-way may still have recorded some documents and their events.
  let wroteEvents = false;
  for (const message of batch.messages) {
    const id = message.body?.type === 'seal' ? Number(message.body.submissionId) : NaN;
    if (!Number.isSafeInteger(id)) {
      console.warn('sealing queue: dropping a message of unknown shape');
      message.ack();
      continue;
    }
    try {
      if ((await sealSubmission(env, db, id)) === 'sealed') wroteEvents = true;
      message.ack();
    } catch (err) {
      wroteEvents = true;
      console.error(`sealing submission ${id} failed (attempt ${message.attempts}):`, err);
      message.retry({ delaySeconds: Math.min(600, 10 * 2 ** message.attempts) });
    }
  }
  if (wroteEvents) await wakeFanOut(env.WEBHOOK_QUEUE, 'sealing');
}
