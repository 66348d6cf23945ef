// Route declarations for signature levels (spec › Get/Update signature level) and the per-signature
// usage they cost (issue 18 › 6).
import { z } from '@hono/zod-openapi';
import { SIGNATURE_LEVELS } from '../../services/signature-levels/levels';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { tenantRoute } from '../openapi-helpers';

const levelSchema = z.enum(SIGNATURE_LEVELS).openapi({ description: '`ses` Simple, `aes` Advanced, `qes` Qualified.', example: 'aes' });

export const signatureLevelSettingsSchema = z
  .object({
    level: levelSchema,
    provider: z.string().openapi({
      description: 'Who signs at this level: `platform` for ses and aes, the QES provider’s label for qes.',
      example: 'platform',
    }),
    configured: z
      .boolean()
      .openapi({ description: 'Whether QES provider credentials are stored, so `qes` can be chosen without sending them again.' }),
    available_levels: z.array(
      z.object({
        key: levelSchema,
        name: z.string().openapi({ example: 'Advanced' }),
        description: z.string(),
        cost_per_signature: z.number().openapi({ description: 'US dollars per completed signature.', example: 0.2 }),
      }),
    ),
  })
  .openapi('SignatureLevelSettings');

const secret = (description: string, example: string) => z.string().trim().min(1).max(4096).optional().openapi({ description, example });

export const signatureLevelBody = z
  .object({
    level: levelSchema,
    provider: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Label of the QES provider (free text); default `csc`.', example: 'Example Trust CSC' }),
    qes_provider_api_key: secret(
      'The OAuth client the CSC provider registered for the account, written `client_id:client_secret`. Stored encrypted, never returned.',
      'acme-signing:9f2c…',
    ),
    qes_provider_api_url: z.string().trim().max(2048).optional().openapi({
      description: 'Base URL of the provider’s CSC API v2 (https). Stored encrypted, never returned.',
      example: 'https://csc.example.com/csc/v2',
    }),
    qes_certificate_id: secret(
      'The signing credential’s id at the provider (`credentialID`). Stored encrypted, never returned.',
      'cred-42',
    ),
  })
  .openapi('UpdateSignatureLevel');

export const getSignatureLevel = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/signature_level',
    tags: ['Settings'],
    summary: 'The account’s signature level and the levels it can choose',
    responses: {
      200: {
        description: 'The signature level configuration (never the provider credentials).',
        content: { 'application/json': { schema: signatureLevelSettingsSchema } },
      },
    },
  },
);

export const updateSignatureLevel = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/settings/signature_level',
    tags: ['Settings'],
    summary: 'Set the account’s signature level (and its QES provider)',
    description:
      'Admins only. The level is the highest one templates and submissions may ask for (`preferences.signature_level`) and their ' +
      'default. `qes` needs a CSC API v2 provider: `qes_provider_api_url`, `qes_provider_api_key` and `qes_certificate_id`, sent ' +
      'together (or stored before). Credentials are stored encrypted and never returned; leaving them out keeps the stored ones. ' +
      'Before anything is saved the provider is asked for the credential (`credentials/info`, with a service token from the ' +
      'client credentials grant): a refusal, an unusable key or certificate, or an unreachable provider is a 422 saying so.',
    request: { body: { required: true, content: { 'application/json': { schema: signatureLevelBody } } } },
    responses: {
      200: {
        description: 'The level now in effect.',
        content: {
          'application/json': {
            schema: z.object({ success: z.literal(true), level: levelSchema, provider: z.string() }).openapi('SignatureLevelUpdated'),
          },
        },
      },
    },
  },
);

export const signatureUsageSchema = z
  .object({
    id: z.number().int(),
    submission_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Null once the submission was deleted permanently; the signature stays billed.' }),
    submitter_id: z.number().int().nullable(),
    level: levelSchema,
    cost: z.number().openapi({ description: 'US dollars charged for this signature.', example: 0.2 }),
    currency: z.literal('USD'),
    signed_at: z.string(),
  })
  .openapi('SignatureUsage');

const totalSchema = z.object({ count: z.number().int(), cost: z.number() });

export const signatureUsageQuery = cursorQuerySchema.extend({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month such as 2026-11')
    .optional()
    .openapi({ description: 'Only signatures completed in this UTC month (`YYYY-MM`).', example: '2026-11' }),
});

export const listSignatureUsage = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/signature_usage',
    tags: ['Settings'],
    summary: 'Completed signatures with their level and cost, newest first, with totals',
    description: 'One item per completed signer. `totals` cover every item the filter selects, not only this page.',
    request: { query: signatureUsageQuery },
    responses: {
      200: {
        description: 'A page of usage and the totals of the filter.',
        content: {
          'application/json': {
            schema: z
              .object({
                data: z.array(signatureUsageSchema),
                pagination: cursorPaginationSchema,
                totals: z.object({
                  count: z.number().int(),
                  cost: z.number(),
                  currency: z.literal('USD'),
                  by_level: z.object({ ses: totalSchema, aes: totalSchema, qes: totalSchema }),
                }),
              })
              .openapi('SignatureUsageList'),
          },
        },
      },
    },
  },
);
