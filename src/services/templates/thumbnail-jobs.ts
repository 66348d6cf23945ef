// Thumbnail batches (docs/decisions.md › Browser Rendering as a budget): a read or generate_thumbnail
// asks for them on the document queue (SEALING_QUEUE, src/queues/thumbnails.ts), and one job draws every
// missing page of its documents at its widths with one browser launch, then records the bytes stored.
import type { Db } from '../../db/client';
import { findCurrentDocumentsByIds, setThumbnailBytes } from '../../db/queries/templates';
import type { Bindings, ThumbnailQueueBody } from '../../env';
import { browserLauncher } from '../rendering/browser-launches';
import type { ImageFormat } from '../rendering/page-images';
import { drawThumbnails, storedThumbnailBytes, THUMBNAIL_WIDTHS, type DrawnThumbnails } from './thumbnails';

/**
 * How long this isolate leaves a batch it queued alone: a page of thumbnails read at once (a builder
 * showing every page) queues one batch, not one per page. Another isolate may queue its own; the batch
 * is idempotent, so that costs a queue operation, not a browser.
 */
export const REQUEUE_AFTER_MS = 30_000;
const MAX_REMEMBERED = 1000;
const recentlyQueued = new Map<string, number>();

/** Queues a batch unless this isolate queued the same one within REQUEUE_AFTER_MS. Returns whether it did. */
export async function requestThumbnails(
  queue: Queue<ThumbnailQueueBody>,
  accountId: number,
  documentIds: number[],
  widths: number[],
  now = Date.now(),
  format: ImageFormat = 'png',
): Promise<boolean> {
  const key = `${accountId}:${documentIds.join(',')}:${widths.join(',')}:${format}`;
  const queuedAt = recentlyQueued.get(key);
  if (queuedAt !== undefined && now - queuedAt < REQUEUE_AFTER_MS) return false;
  await queue.send({ type: 'thumbnails', accountId, documentIds, widths, ...(format === 'png' ? {} : { format }) });
  recentlyQueued.delete(key);
  recentlyQueued.set(key, now);
  // Oldest first (insertion order): forget the oldest once the map is full.
  if (recentlyQueued.size > MAX_REMEMBERED) recentlyQueued.delete(recentlyQueued.keys().next().value!);
  return true;
}

/**
 * Runs one batch: documents removed or deleted since it was asked for are skipped, as are widths that
 * are not drawn widths (a message is input too). Idempotent: a repeated batch finds everything stored,
 * launches nothing and records the same bytes. BrowserLaunchesExhausted and RenderingUnavailable reach
 * the caller, which retries later.
 */
export async function runThumbnailJob(
  scope: { db: Db; env: Pick<Bindings, 'FILES' | 'ASSETS' | 'BROWSER' | 'RATE_LIMITER'> },
  body: ThumbnailQueueBody,
): Promise<DrawnThumbnails> {
  const { db, env } = scope;
  const widths = [...new Set(body.widths)].filter((w): w is (typeof THUMBNAIL_WIDTHS)[number] =>
    (THUMBNAIL_WIDTHS as readonly number[]).includes(w),
  );
  const documents = await findCurrentDocumentsByIds(db, body.accountId, body.documentIds.filter(Number.isSafeInteger));
  const deps = { bucket: env.FILES, assets: env.ASSETS, launcher: browserLauncher(env, body.accountId) };
  // PNG unless the batch is the signing page's WebP (a message is input too: anything else is PNG).
  const result = await drawThumbnails(deps, documents, widths, body.format === 'webp' ? 'webp' : 'png');
  if (result.drawn > 0) {
    // What R2 now holds for each document, every width: thumbnails count toward the account's storage.
    for (const document of documents) {
      await setThumbnailBytes(db, body.accountId, document.id, await storedThumbnailBytes(env.FILES, document.r2Key));
    }
  }
  return result;
}
