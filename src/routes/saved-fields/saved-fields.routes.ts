// Route declarations for saved fields: reusable field configurations of an account (spec › Other endpoints named).
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';
import { fieldInputSchema } from '../templates/templates.schemas';

/** A field's own settings: where it sits (areas) and whose it is (role) belong to a template. */
export const savedFieldConfigSchema = fieldInputSchema
  .omit({ uuid: true, role: true, submitter_uuid: true, areas: true })
  .openapi('SavedFieldConfig');

export const savedFieldSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    field: z.record(z.string(), z.unknown()).openapi({ description: 'The field configuration as saved.' }),
    author_id: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('SavedField');

export const createSavedFieldBody = z.object({
  name: z.string().trim().min(1).max(255).openapi({ example: 'Company VAT number' }),
  field: savedFieldConfigSchema,
});

export const listSavedFields = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/saved_fields',
    tags: ['Settings'],
    summary: 'List saved field configurations, newest first',
    request: { query: cursorQuerySchema },
    responses: {
      200: {
        description: 'A page of saved fields.',
        content: { 'application/json': { schema: z.object({ data: z.array(savedFieldSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);

export const createSavedField = tenantRoute(
  { scopes: ['account:write'], idempotent: true },
  {
    method: 'post',
    path: '/settings/saved_fields',
    tags: ['Settings'],
    summary: 'Save a field configuration for reuse',
    request: { body: { required: true, content: { 'application/json': { schema: createSavedFieldBody } } } },
    responses: { 201: { description: 'The saved field.', content: { 'application/json': { schema: savedFieldSchema } } } },
  },
);

export const deleteSavedField = tenantRoute(
  { scopes: ['account:write'] },
  {
    method: 'delete',
    path: '/settings/saved_fields/{id}',
    tags: ['Settings'],
    summary: 'Delete a saved field configuration',
    request: { params: idParamsSchema },
    responses: { 204: { description: 'Deleted.' } },
  },
);
