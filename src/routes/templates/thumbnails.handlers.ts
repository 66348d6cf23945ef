// Handlers of template thumbnails: find the template and document, then serve or draw the PNGs.
import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import * as templatesDb from '../../db/queries/templates';
import type { Template, TemplateDocument } from '../../db/schema/index';
import { ApiError, notFound } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { RenderingUnavailable } from '../../services/rendering/sandboxed-page';
import { generateThumbnails as generate, thumbnailFor, type ThumbnailDeps } from '../../services/templates/thumbnails';
import { loadTemplate } from './templates.handlers';
import { thumbnailUrl } from './templates.serialize';
import type * as routes from './thumbnails.routes';

function depsOf(c: Context<AppEnv>): ThumbnailDeps {
  return { bucket: c.env.FILES, browser: c.env.BROWSER, assets: c.env.ASSETS };
}

async function documentsOf(c: Context<AppEnv>, template: Template, documentId: string | undefined): Promise<TemplateDocument[]> {
  if (documentId === undefined) return templatesDb.listCurrentDocuments(c.var.db, [template.id]);
  const document = await templatesDb.findCurrentDocument(c.var.db, template.id, documentId);
  if (!document) throw notFound('Document');
  return [document];
}

export const getThumbnail: RouteHandler<typeof routes.getThumbnail, AppEnv> = async (c) => {
  const { document_id: documentId, page, width } = c.req.valid('query');
  const template = await loadTemplate(c, c.var.db, c.req.valid('param').id);
  const [document] = await documentsOf(c, template, documentId);
  if (!document) throw notFound('Document');
  if (page > document.pageCount) {
    throw new ApiError(404, `Page ${page} not found: the document has ${document.pageCount} ${document.pageCount === 1 ? 'page' : 'pages'}, numbered from 1.`);
  }
  let png: Uint8Array;
  try {
    png = await thumbnailFor(depsOf(c), document, page, width);
  } catch (error) {
    if (error instanceof RenderingUnavailable) {
      console.error(error.message);
      throw new ApiError(503, 'The thumbnail is not drawn yet and the rendering browser is unavailable; retry in a minute.');
    }
    throw error;
  }
  return c.body(png.buffer as ArrayBuffer, 200, {
    'Content-Type': 'image/png',
    'Content-Length': String(png.byteLength),
    'Cache-Control': 'private, no-store',
  }) as never;
};

export const generateThumbnails: RouteHandler<typeof routes.generateThumbnails, AppEnv> = async (c) => {
  const { document_id: documentId, width } = c.req.valid('query');
  const template = await loadTemplate(c, c.var.db, c.req.valid('param').id);
  const documents = await documentsOf(c, template, documentId);
  const deps = depsOf(c);
  // Off the request path (decisions.md › Thumbnails): a page the background run has not drawn yet is
  // drawn by the first GET of its URL, so a run cut short costs latency, never a missing image.
  c.executionCtx.waitUntil(
    (async () => {
      for (const document of documents) {
        try {
          await generate(deps, document, width);
        } catch (error) {
          console.error(`Thumbnails of template ${template.publicId} document ${document.uuid} at ${width}px:`, error);
        }
      }
    })(),
  );
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  const thumbnails = documents.flatMap((document) =>
    Array.from({ length: document.pageCount }, (_, i) => ({
      document_id: document.uuid,
      page: i + 1,
      url: thumbnailUrl(base, template, { documentUuid: document.uuid, page: i + 1, width }),
    })),
  );
  return c.json({ status: 'generating' as const, width, thumbnails }, 202);
};
