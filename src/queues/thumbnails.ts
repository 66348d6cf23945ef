// Thumbnail batches on the document queue (the sealing queue, one message per batch): a thin dispatcher
// into services/templates/thumbnail-jobs. A spent launch budget retries when a launch frees up; an
// unavailable browser or a failure retries with backoff.
import type { ShardScope } from '../db/shards';
import { BrowserLaunchesExhausted } from '../services/rendering/browser-launches';
import { runThumbnailJob } from '../services/templates/thumbnail-jobs';
import type { ThumbnailQueueBody } from '../env';
import { secondsUntil } from '../lib/time';

export async function consumeThumbnailMessage(message: Message<ThumbnailQueueBody>, scope: ShardScope): Promise<void> {
  const { accountId } = message.body;
  try {
    await runThumbnailJob(scope, message.body);
    message.ack();
  } catch (error) {
    if (error instanceof BrowserLaunchesExhausted) {
      message.retry({ delaySeconds: secondsUntil(error.retryAt) });
      return;
    }
    console.error(`thumbnails of account ${accountId} (attempt ${message.attempts}):`, error);
    message.retry({ delaySeconds: Math.min(600, 10 * 2 ** message.attempts) });
  }
}
