// Queue consumer for the sealing queue: a thin dispatcher into services/sealing. A failed submission is
// retried (with backoff) on its own; the others in the batch are acknowledged.
import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { sealSubmission } from '../services/sealing/seal-submission';
import type { SealingQueueBody } from '../services/submissions/submission-state';

export async function consumeSealing(batch: MessageBatch<SealingQueueBody>, env: Bindings): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const id = message.body?.type === 'seal' ? Number(message.body.submissionId) : NaN;
    if (!Number.isSafeInteger(id)) {
      console.warn('sealing queue: dropping a message of unknown shape');
      message.ack();
      continue;
    }
    try {
      await sealSubmission(env, db, id);
      message.ack();
    } catch (err) {
      console.error(`sealing submission ${id} failed (attempt ${message.attempts}):`, err);
      message.retry({ delaySeconds: Math.min(600, 10 * 2 ** message.attempts) });
    }
  }
}
