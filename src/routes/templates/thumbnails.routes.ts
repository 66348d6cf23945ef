// Routes of template thumbnails (spec › Other endpoints: thumbnails; Scopes: templates:read / write).
import { z } from '@hono/zod-openapi';
import { THUMBNAIL_WIDTH, THUMBNAIL_WIDTHS } from '../../services/templates/thumbnails';
import { tenantRoute } from '../openapi-helpers';
import { templateParams } from './templates.schemas';

const tags = ['Templates'];
const { min, max } = THUMBNAIL_WIDTH;
const width = z.coerce
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(min, `must be between ${min} and ${max} pixels`)
  .max(max, `must be between ${min} and ${max} pixels`)
  .default(THUMBNAIL_WIDTH.default)
  .openapi({
    description: `Image width in pixels (${min}–${max}), rounded to the nearest drawn width (${THUMBNAIL_WIDTHS.join(', ')}; halfway goes up); ${THUMBNAIL_WIDTH.default} by default.`,
  });
const documentId = z.string().max(64).optional().openapi({ description: 'Document uuid or integer id; the first document by default.' });

export const thumbnailQuery = z.object({
  document_id: documentId,
  page: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be 1 or more')
    .default(1)
    .openapi({ description: 'Page number, from 1.' }),
  width,
});

export const generateThumbnailsQuery = z.object({
  document_id: documentId.openapi({ description: 'Only this document (uuid or integer id); every document by default.' }),
  width,
});

const generationSchema = z
  .object({
    status: z.literal('generating'),
    width: z.number().int().openapi({ description: 'The drawn width the requested one was rounded to.' }),
    thumbnails: z.array(z.object({ document_id: z.uuid(), page: z.number().int(), url: z.string() })),
  })
  .openapi('ThumbnailGeneration');

export const getThumbnail = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/documents/thumbnail',
    tags,
    summary: 'A page of a template document as a PNG',
    description:
      'Serves a stored thumbnail. One not drawn yet is answered 202 with `Retry-After`, and its document is queued to be drawn ' +
      'at that width (every page, in the background); a read never starts a browser itself.',
    request: { params: templateParams, query: thumbnailQuery },
    responses: {
      200: {
        description: 'The PNG; `X-Thumbnail-Width` says the drawn width it is.',
        headers: { 'X-Thumbnail-Width': { schema: { type: 'integer' }, description: 'The drawn width the requested one was rounded to.' } },
        content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      202: {
        description: 'Not drawn yet: drawing is queued; retry after `Retry-After` seconds.',
        headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before asking again.' } },
        content: { 'application/json': { schema: generationSchema } },
      },
      503: {
        description: 'The page is not drawn yet and the rendering browser is unavailable; retry later.',
        content: { 'application/json': { schema: z.object({ error: z.string() }) } },
      },
    },
  },
);

export const generateThumbnails = tenantRoute(
  { scopes: ['templates:write'] },
  {
    method: 'post',
    path: '/templates/{id}/documents/generate_thumbnail',
    tags,
    summary: 'Draw every page’s PNG in the background',
    description:
      'Answers at once with the URLs; the images are drawn in one background batch (pages already drawn at this width are skipped). ' +
      'A URL requested before its image is ready answers 202 until it is.',
    request: { params: templateParams, query: generateThumbnailsQuery },
    responses: {
      202: { description: 'Drawing is queued.', content: { 'application/json': { schema: generationSchema } } },
      503: {
        description: 'The rendering browser is unavailable; retry later.',
        content: { 'application/json': { schema: z.object({ error: z.string() }) } },
      },
    },
  },
);
