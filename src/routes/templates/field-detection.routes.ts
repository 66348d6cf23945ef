// Routes of field detection (spec › Other endpoints: /api/templates/{id}/ai/*; Scopes: detect needs
// templates:write, status templates:read; decisions.md › Documents in).
import { z } from '@hono/zod-openapi';
import { DEFAULT_MIN_CONFIDENCE } from '../../services/field-detection/detect-fields';
import { tenantRoute } from '../openapi-helpers';
import { templateParams } from './templates.schemas';

const tags = ['Templates'];
const minConfidence = z
  .number({ error: 'must be a number between 0 and 1' })
  .min(0, 'must be between 0 and 1')
  .max(1, 'must be between 0 and 1')
  .openapi({ description: `Proposals below this confidence are left out; ${DEFAULT_MIN_CONFIDENCE} by default.` });

export const detectBody = z
  .object({
    apply: z
      .boolean({ error: 'must be true or false' })
      .default(false)
      .openapi({ description: 'Store the proposed fields (added to the current ones) as a new template version.' }),
    min_confidence: minConfidence.default(DEFAULT_MIN_CONFIDENCE),
  })
  .strict()
  .openapi('FieldDetectionRequest');

const area = z
  .object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() })
  .openapi({ description: 'Fractions of the page from its top-left corner, as template areas.' });

const detectionSchema = z
  .object({
    status: z
      .enum(['none', 'running', 'done', 'failed'])
      .openapi({ description: '`none` until detection has run on the current documents.' }),
    fields: z.array(
      z.object({
        name: z.string(),
        type: z.enum(['text', 'signature', 'initials', 'date', 'phone', 'checkbox']),
        role: z.string(),
        document_id: z.uuid(),
        page: z.number().int().openapi({ description: 'From 1.' }),
        area,
        confidence: z.number().openapi({ description: 'From 0 to 1: a keyword label beside a blank scores highest.' }),
      }),
    ),
    errors: z.array(z.object({ document_id: z.uuid(), message: z.string() })).openapi({ description: 'Documents that could not be read.' }),
    detected_at: z.string().nullable(),
    applied_version: z.number().int().optional().openapi({ description: 'The template version `apply` created.' }),
  })
  .openapi('FieldDetection');

export const detectFields = tenantRoute(
  { scopes: ['templates:write'] },
  {
    method: 'post',
    path: '/templates/{id}/ai/detect',
    tags,
    summary: 'Propose fields from the documents’ text and layout',
    description:
      'Reads each current document’s text and drawing with pdf.js and proposes fields: labels such as Signature, Date, ' +
      'Name or Initials beside blank lines, underscore runs or boxes, and checkboxes (small squares, ☐ glyphs). ' +
      'Runs within the request (at most 50 pages per document are read) and keeps the result for `ai/status`. ' +
      'With `apply: true` the proposals are added to the template’s fields as a new version.',
    request: { params: templateParams, body: { required: false, content: { 'application/json': { schema: detectBody } } } },
    responses: { 200: { description: 'The proposals.', content: { 'application/json': { schema: detectionSchema } } } },
  },
);

export const detectionStatus = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/ai/status',
    tags,
    summary: 'The last field detection of the current documents',
    request: { params: templateParams },
    responses: { 200: { description: 'The last result.', content: { 'application/json': { schema: detectionSchema } } } },
  },
);
