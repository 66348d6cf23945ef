// Page images on the signing page (issue 31 › 6; docs/decisions.md › Issue 31 point 6): each page of the
// template drawn as WebP beside its PNG thumbnails (services/templates/thumbnails.ts, in background
// batches) is what a signer's browser shows, at the width its screen needs, instead of downloading the
// PDF and drawing it with pdf.js. pdf.js stays the fallback for what has no images: a document not drawn
// yet, a DOCX document filled for this submission, a document longer than the page-image cap.
import type { TemplateDocument } from '../../db/schema/index';
import type { ThumbnailQueueBody } from '../../env';
import { requestThumbnails } from '../templates/thumbnail-jobs';
import { storedThumbnail, thumbnailKey, type ThumbnailWidth } from '../templates/thumbnails';
import { generatedDocumentKey } from '../submissions/generated-documents';

/**
 * The widths the signing page chooses from (a subset of THUMBNAIL_WIDTHS): a phone needs 400 or 800
 * (its pixel density counted up to 2), a desktop column 1600.
 */
export const SIGNING_IMAGE_WIDTHS = [400, 800, 1600] as const satisfies readonly ThumbnailWidth[];

/**
 * Documents longer than this are drawn with pdf.js (one request) rather than as page images (one
 * request per page): every request under /s counts against the link's 120 a minute (signing.limits.ts).
 */
export const PAGE_IMAGE_MAX_PAGES = 60;

type ImageDocument = Pick<TemplateDocument, 'id' | 'r2Key' | 'pageCount'>;

/**
 * A version for the images' URLs, changing with the document's file (a replaced file keeps its uuid but
 * gets a new key), so the browser may keep an image for good: the first 12 hex digits of SHA-256 of the key.
 */
export async function pageImageVersion(document: Pick<TemplateDocument, 'r2Key'>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(document.r2Key));
  return [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * How the signing page can show `document` for this submission: `ready` when its last page is stored at
 * every signing width (a batch draws a width's pages in order, so the last one means all of them),
 * `missing` when it could have images but they are not drawn yet, `none` for a copy filled for the
 * submission (DOCX variables: the template's images would show the unfilled text) or a document past
 * PAGE_IMAGE_MAX_PAGES.
 */
export async function pageImagesState(
  bucket: R2Bucket,
  document: ImageDocument,
  submissionSlug: string,
): Promise<'ready' | 'missing' | 'none'> {
  if (document.pageCount < 1 || document.pageCount > PAGE_IMAGE_MAX_PAGES) return 'none';
  const [generated, ...stored] = await Promise.all([
    bucket.head(generatedDocumentKey(document, submissionSlug)),
    ...SIGNING_IMAGE_WIDTHS.map((width) => bucket.head(thumbnailKey(document.r2Key, width, document.pageCount, 'webp'))),
  ]);
  if (generated) return 'none';
  return stored.every(Boolean) ? 'ready' : 'missing';
}

/**
 * The stored WebP of `page` at `width` as the signing page may show it for this submission, or null
 * (not drawn, not a signing width, or a document the page draws with pdf.js: see pageImagesState).
 */
export async function signingPageImage(
  bucket: R2Bucket,
  document: ImageDocument,
  submissionSlug: string,
  page: number,
  width: number,
): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  if (!(SIGNING_IMAGE_WIDTHS as readonly number[]).includes(width)) return null;
  if (!Number.isInteger(page) || page < 1 || page > document.pageCount || document.pageCount > PAGE_IMAGE_MAX_PAGES) return null;
  if (await bucket.head(generatedDocumentKey(document, submissionSlug))) return null;
  const bytes = await storedThumbnail(bucket, document, page, width, 'webp');
  // A browser that cannot encode WebP hands back a PNG instead (canvas.toDataURL): say what the bytes are.
  return bytes ? { bytes, contentType: isWebp(bytes) ? 'image/webp' : 'image/png' } : null;
}

/** RIFF….WEBP: the file's own signature. */
function isWebp(bytes: Uint8Array): boolean {
  const text = String.fromCharCode(...bytes.subarray(0, 4), ...bytes.subarray(8, 12));
  return text === 'RIFFWEBP';
}

/**
 * Queues the drawing of `documents`' page images at the signing widths (one background batch, idempotent,
 * at most once per 30 s per isolate: thumbnail-jobs.ts). Without a browser or a queue nothing can draw
 * them and the page keeps using pdf.js; a failure to queue is logged, never the signer's problem.
 */
export async function queuePageImages(
  queue: Queue<ThumbnailQueueBody> | undefined,
  browser: Fetcher | undefined,
  accountId: number,
  documents: ImageDocument[],
): Promise<void> {
  const wanted = documents.filter((d) => d.pageCount >= 1 && d.pageCount <= PAGE_IMAGE_MAX_PAGES);
  if (!queue || !browser || wanted.length === 0) return;
  try {
    await requestThumbnails(
      queue,
      accountId,
      wanted.map((d) => d.id),
      [...SIGNING_IMAGE_WIDTHS],
      Date.now(),
      'webp',
    );
  } catch (error) {
    console.error('page images: the batch could not be queued:', error);
  }
}
