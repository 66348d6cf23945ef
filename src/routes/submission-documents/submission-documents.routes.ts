// Route declarations for a submission's sealed documents (decisions.md › Signed output).
import { z } from '@hono/zod-openapi';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';

const tags = ['Submissions'];
const read = { scopes: ['submissions:read'] } as const;
const write = { scopes: ['submissions:write'] } as const;

export const sealedDocumentSchema = z
  .object({
    id: z.number().int().openapi({ description: 'The template document’s id; also the path segment of its download.' }),
    filename: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 of the sealed file, hexadecimal.' }),
    original_sha256: z.string().openapi({ description: 'SHA-256 of the document as uploaded to the template.' }),
    byte_size: z.number().int(),
    download_url: z.string().openapi({ description: 'Authenticated: send the API token.' }),
    created_at: z.string(),
  })
  .openapi('SealedDocument');

export const sealingStatusSchema = z
  .object({
    status: z.enum(['not_completed', 'in_progress', 'sealed', 'failed']).openapi({
      description:
        '`not_completed`: the submission is not completed yet. `in_progress`: completed, sealing queued or running (with retries). ' +
        '`sealed`: the documents are ready. `failed`: the sealing job failed its last retry; `reason` says why, and ' +
        '`POST /api/submissions/{id}/documents/reseal` queues it again.',
    }),
    reason: z.string().nullable().openapi({ description: 'With `failed`: why sealing stopped, as a sentence.' }),
    failed_at: z.string().nullable().openapi({ description: 'With `failed`: when the last retry failed.' }),
  })
  .openapi('SealingStatus');

export const documentListSchema = z
  .object({
    sealed: z.boolean().openapi({ description: 'false while the submission is pending or its documents are still being sealed.' }),
    sealing: sealingStatusSchema,
    documents: z.array(sealedDocumentSchema),
    combined_download_url: z
      .string()
      .nullable()
      .openapi({ description: 'Every document merged into one sealed PDF; add `?separate=true` for a zip.' }),
  })
  .openapi('SealedDocumentList');

export const listSubmissionDocuments = tenantRoute(
  { ...read, errors: [410] },
  {
    method: 'get',
    path: '/submissions/{id}/documents',
    tags,
    summary: 'The sealed documents of a completed submission',
    request: { params: idParamsSchema },
    responses: {
      200: {
        description: 'The sealed documents (none until sealing finished).',
        content: { 'application/json': { schema: documentListSchema } },
      },
    },
  },
);

export const documentParams = idParamsSchema.extend({
  document_id: z
    .string()
    .max(32)
    .openapi({
      param: { name: 'document_id', in: 'path' },
      description: 'A document id from the list, or `combined` for every document as one PDF.',
      example: 'combined',
    }),
});

export const documentQuery = z.object({
  separate: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'With `combined`: `true` answers a zip of the individual sealed PDFs.' }),
});

export const downloadSubmissionDocument = tenantRoute(
  { ...read, errors: [409, 410, 502] },
  {
    method: 'get',
    path: '/submissions/{id}/documents/{document_id}',
    tags,
    summary: 'Download a sealed document, or all of them',
    description:
      'A document id streams that sealed PDF. `combined` merges every sealed document into one PDF, sealed again with the ' +
      'account’s certificate (the individual signatures cannot survive a merge); `combined?separate=true` is a zip of the ' +
      'individual sealed PDFs, each with its own signature. A document its author certified for form filling (DocMDP P=2/3) ' +
      'takes no audit page: its audit trail is a sealed PDF of its own, placed after it in both (`<name> audit trail.pdf` in ' +
      'the zip). With a time-stamping authority configured the combined PDF is ' +
      'PAdES B-LTA like every seal; 502 when the authority or an OCSP responder fails (nothing is stored; retry).',
    request: { params: documentParams, query: documentQuery },
    responses: {
      200: {
        description: 'The PDF, or a zip with `separate=true`.',
        content: {
          'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
          'application/zip': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
    },
  },
);

export const resealSubmissionDocuments = tenantRoute(
  { ...write, errors: [410, 422] },
  {
    method: 'post',
    path: '/submissions/{id}/documents/reseal',
    tags,
    summary: 'Queue a completed submission for sealing again',
    description:
      'For a completed submission whose documents are not sealed — typically `sealing.status: "failed"` after the sealing job ' +
      'failed its last retry — clears the failure and hands the submission to the sealing job again. 422 when the submission ' +
      'is not completed or its documents are already sealed.',
    request: { params: idParamsSchema },
    responses: {
      202: {
        description: 'Queued: the sealing status as it now stands (`in_progress`).',
        content: { 'application/json': { schema: documentListSchema } },
      },
    },
  },
);
