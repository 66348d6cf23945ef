// Handlers of template thumbnails: find the template and document, then serve a stored PNG or queue
// the drawing (a read never starts a browser: docs/decisions.md › Browser Rendering as a budget).
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import * as templatesDb from '../../db/queries/templates';
import type { Template, TemplateDocument } from '../../db/schema/index';
import { ApiError, notFound } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { requestThumbnails } from '../../services/templates/thumbnail-jobs';
import { storedThumbnail, thumbnailWidth } from '../../services/templates/thumbnails';
import { loadTemplate } from './templates.handlers';
import { thumbnailUrl } from './templates.serialize';
import type * as routes from './thumbnails.routes';

/** Seconds a client waits before asking again for a thumbnail that is queued. */
export const THUMBNAIL_RETRY_AFTER = 10;

async function documentsOf(c: Context<AppEnv>, template: Template, documentId: string | undefined): Promise<TemplateDocument[]> {
  if (documentId === undefined) return templatesDb.listCurrentDocuments(c.var.scope.db, [template.id]);
  const document = await templatesDb.findCurrentDocument(c.var.scope.db, template.id, documentId);
  if (!document) throw notFound('Document');
  return [document];
}

/** Queues one batch for `documents` at `width`, or 503 when nothing could ever draw it. */
async function queueDrawing(c: Context<AppEnv>, documents: TemplateDocument[], width: number): Promise<void> {
  const queue = c.var.scope.queues.sealing;
  if (!c.env.BROWSER || !queue) {
    console.error('thumbnails: the BROWSER binding or the document queue (SEALING_QUEUE) is not configured.');
    throw new ApiError(503, 'The thumbnail is not drawn yet and the rendering browser is unavailable; retry in a minute.');
  }
  try {
    await requestThumbnails(
      queue,
      c.var.principal.account.id,
      documents.map((d) => d.id),
      [width],
    );
  } catch (error) {
    console.error('thumbnails: the batch could not be queued:', error);
    throw new ApiError(503, 'The thumbnail is not drawn yet and could not be queued for drawing; retry in a minute.');
  }
}

function generation(c: Context<AppEnv>, template: Template, documents: TemplateDocument[], width: number, pages?: number) {
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  return {
    status: 'generating' as const,
    width,
    thumbnails: documents.flatMap((document) =>
      (pages === undefined ? Array.from({ length: document.pageCount }, (_, i) => i + 1) : [pages]).map((page) => ({
        document_id: document.uuid,
        page,
        url: thumbnailUrl(base, template, { documentUuid: document.uuid, page, width }),
      })),
    ),
  };
}

export const getThumbnail: AppRouteHandler<typeof routes.getThumbnail> = async (c) => {
  const { document_id: documentId, page } = c.req.valid('query');
  const width = thumbnailWidth(c.req.valid('query').width);
  const template = await loadTemplate(c, c.var.scope.db, c.req.valid('param').id);
  const [document] = await documentsOf(c, template, documentId);
  if (!document) throw notFound('Document');
  if (page > document.pageCount) {
    throw new ApiError(
      404,
      `Page ${page} not found: the document has ${document.pageCount} ${document.pageCount === 1 ? 'page' : 'pages'}, numbered from 1.`,
    );
  }
  const png = await storedThumbnail(c.env.FILES, document, page, width);
  if (!png) {
    // Every page of the document at this width, in one background batch with one browser launch.
    await queueDrawing(c, [document], width);
    c.header('Retry-After', String(THUMBNAIL_RETRY_AFTER));
    c.header('Cache-Control', 'no-store');
    return c.json(generation(c, template, [document], width, page), 202);
  }
  return c.body(png.buffer as ArrayBuffer, 200, {
    'Content-Type': 'image/png',
    'Content-Length': String(png.byteLength),
    'Cache-Control': 'private, no-store',
    'X-Thumbnail-Width': String(width),
  }) as never;
};

export const generateThumbnails: AppRouteHandler<typeof routes.generateThumbnails> = async (c) => {
  const { document_id: documentId } = c.req.valid('query');
  const width = thumbnailWidth(c.req.valid('query').width);
  const template = await loadTemplate(c, c.var.scope.db, c.req.valid('param').id);
  const documents = await documentsOf(c, template, documentId);
  // One batch for every document: the job skips pages already drawn, so repeating this is idempotent.
  await queueDrawing(c, documents, width);
  return c.json(generation(c, template, documents, width), 202);
};
