// Route declarations for bulk sends (issue 33 › 3; docs/decisions.md › Bulk send): a CSV file or JSON
// `rows` of one template become one submission per row, checked first, created through the queue.
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { BULK_LIMITS } from '../../services/bulk-send/start-bulk-send';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';
import { templateParams } from '../templates/templates.schemas';

const tags = ['Bulk sends'];

export const bulkSendSchema = z
  .object({
    id: z.number().int(),
    template_id: z.string().openapi({ example: 'tpl_3fK9x2LmQ7pR1sT5vW8y' }),
    status: z.enum(['queued', 'processing', 'completed']).openapi({ description: '`completed` once every row was created or failed.' }),
    total: z.number().int().openapi({ description: 'Rows in the upload.' }),
    created: z.number().int().openapi({ description: 'Rows created as submissions so far.' }),
    failed: z.number().int().openapi({ description: 'Rows that could not be created (GET …/rows?status=failed says why).' }),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .openapi('BulkSend');

const dryRunSchema = z
  .object({
    dry_run: z.literal(true),
    total: z.number().int(),
    valid: z.number().int().openapi({ description: 'Rows that would be created.' }),
    invalid: z.number().int().openapi({ description: 'Rows with at least one problem.' }),
    errors: z
      .array(z.string())
      .openapi({ description: 'Every problem, each a sentence starting with its row number (`Row 3, Signer: …`).' }),
  })
  .openapi('BulkSendDryRun');

export const bulkRowSchema = z
  .object({
    id: z.number().int().openapi({ description: 'The cursor of the rows list.' }),
    row: z.number().int().openapi({ description: 'Row number: 1 is the first row after the CSV header, or rows[0].' }),
    status: z.enum(['created', 'failed']),
    submission_id: z.number().int().nullable(),
    errors: z.array(z.string()),
    created_at: z.string().openapi({ description: 'When the row was processed.' }),
  })
  .openapi('BulkSendRow');

const settings = {
  dry_run: z.boolean().optional().openapi({ description: 'Check every row and answer with the problems; nothing is created.' }),
  send_email: z.boolean().optional().openapi({ description: 'Invite by email (default true), as in POST /api/submissions.' }),
  send_sms: z.boolean().optional(),
  submitters_order: z.enum(['sequential', 'parallel']).optional(),
  expire_at: z.string().optional().openapi({ description: 'Every submission’s deadline, a future date-time.' }),
};

/** Declared for the documentation; the handler reads the body itself (size cap, CSV or JSON). */
export const bulkSendJsonBody = z
  .object({
    rows: z
      .array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))
      .openapi({ description: `One object per submission, keyed by column (at most ${BULK_LIMITS.rows.toLocaleString('en-US')}).` }),
    ...settings,
  })
  .openapi('BulkSendJson');

export const bulkSendMultipartBody = z
  .object({
    file: z
      .string()
      .openapi({ format: 'binary', description: 'The CSV, UTF-8 (a byte-order mark is fine), the first line naming the columns.' }),
    ...settings,
  })
  .openapi('BulkSendMultipart');

const description =
  `One submission per row (at most ${BULK_LIMITS.rows.toLocaleString('en-US')} rows and ${BULK_LIMITS.bytes / 1024 / 1024} MB). Columns: ` +
  '`<Role> email`, `<Role> name`, `<Role> phone`, `<Role> external_id` and `<Role> order` (just `email`, `name`, … for a ' +
  'one-role template); a field’s name (the value prefilled for its role); a DOCX variable; `metadata.<key>`. Every row is ' +
  'checked as POST /api/submissions would check it. With `dry_run: true` the answer lists every problem and nothing is ' +
  'created; otherwise any problem refuses the upload with 422 (nothing created), and a clean upload is accepted with 202: ' +
  'its rows are created through a queue in batches of 100, each row once however often its batch is delivered, the plan’s ' +
  'monthly submissions counted per row. Sending needs `submissions:send` as well (a dry run does not).';

export const createBulkSend = tenantRoute(
  { scopes: ['submissions:write'], idempotent: true, maxBodyBytes: BULK_LIMITS.bytes, errors: [413] },
  {
    method: 'post',
    path: '/templates/{id}/bulk_send',
    tags,
    summary: 'Send a template to many people from a CSV or JSON rows',
    description,
    request: {
      params: templateParams,
      body: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/BulkSendJson' } },
          'multipart/form-data': { schema: { $ref: '#/components/schemas/BulkSendMultipart' } },
        },
      },
    },
    responses: {
      200: {
        description: 'A dry run: what would be created and every problem.',
        content: { 'application/json': { schema: dryRunSchema } },
      },
      202: { description: 'Accepted: the rows are being created.', content: { 'application/json': { schema: bulkSendSchema } } },
    },
  },
);

export const getBulkSend = tenantRoute(
  { scopes: ['submissions:read', 'submissions:write'] },
  {
    method: 'get',
    path: '/bulk_sends/{id}',
    tags,
    summary: 'A bulk send’s status and counts',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The bulk send.', content: { 'application/json': { schema: bulkSendSchema } } } },
  },
);

export const listBulkSendRows = tenantRoute(
  { scopes: ['submissions:read', 'submissions:write'] },
  {
    method: 'get',
    path: '/bulk_sends/{id}/rows',
    tags,
    summary: 'A bulk send’s processed rows, newest first',
    request: {
      params: idParamsSchema,
      query: cursorQuerySchema.extend({
        status: z
          .enum(['created', 'failed'])
          .optional()
          .openapi({ description: 'Only created rows, or only failed ones with their sentences.' }),
      }),
    },
    responses: {
      200: {
        description: 'A page of rows.',
        content: { 'application/json': { schema: z.object({ data: z.array(bulkRowSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);
