// Route declarations for the account audit trail.
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { tenantRoute } from '../openapi-helpers';

export const auditEventSchema = z
  .object({
    id: z.number().int(),
    action: z.string().openapi({ example: 'access_token.create' }),
    resource_type: z.string().nullable(),
    resource_id: z.string().nullable(),
    user_id: z.number().int().nullable(),
    access_token_id: z.number().int().nullable(),
    actor: z
      .string()
      .nullable()
      .openapi({
        description:
          'Who acted: the API token’s prefix, a partner key’s prefix (`ptk_…`, operator actions), `stripe` (plan changes from billing), ' +
          '`public_link` (a public document link opened) or `signer:<email>` (a signer on the signing page).',
        example: 'tok_a1B2c3D4',
      }),
    method: z.string(),
    path: z.string(),
    status: z.number().int().openapi({ description: 'HTTP status of the request; refused attempts are recorded too.' }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    request_id: z.string(),
    created_at: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({
        description:
          'What the action concerned beyond its resource, or null. `submitter.disclosure_accepted` (a signer accepted the electronic records ' +
          'disclosure) carries `submission_id`, `disclosure_version`, `disclosure_sha256` and `accepted_at`.',
        example: {
          submission_id: 12,
          disclosure_version: '2026-11-25',
          disclosure_sha256: 'ccc8dd91…',
          accepted_at: '2026-11-27T10:00:00.000Z',
        },
      }),
  })
  .openapi('AuditEvent');

export const listAuditEvents = tenantRoute(
  { scopes: ['audit_events:read'], feature: 'audit_events' },
  {
    method: 'get',
    path: '/audit_events',
    tags: ['Audit trail'],
    summary: 'List audit events, newest first',
    description:
      'Events are kept 7 years. Those older than 90 days are stored in an archive and listed here exactly as ' +
      'the others: the same order, cursors and filters. An archived part that fails its integrity check is ' +
      'never returned: the request answers 500 with a `reference` instead.',
    request: {
      query: cursorQuerySchema.extend({
        action: z.string().max(100).optional(),
        resource_type: z.string().max(100).optional(),
        resource_id: z.string().max(100).optional(),
        user_id: z.coerce.number().int().positive().optional(),
        created_after: z.iso.datetime({ offset: true }).optional(),
        created_before: z.iso.datetime({ offset: true }).optional(),
      }),
    },
    responses: {
      200: {
        description: 'A page of audit events.',
        content: { 'application/json': { schema: z.object({ data: z.array(auditEventSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);
