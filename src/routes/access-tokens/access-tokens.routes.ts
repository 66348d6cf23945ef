// Route declarations for API access tokens (spec › Endpoints › Access tokens).
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { SCOPES } from '../../lib/scopes';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';

export const accessTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    user_id: z.number().int(),
    token_prefix: z.string().openapi({ description: 'The first characters of the token, to recognise it.' }),
    scopes: z.array(z.string()).openapi({ description: 'Empty means full access.' }),
    allowed_ips: z.array(z.string()).openapi({ description: 'Empty means any IP.' }),
    expired: z.boolean().openapi({ description: 'True once the token can no longer be used: expired or revoked.' }),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable().openapi({ description: 'Refreshed at most once a minute.' }),
    created_at: z.string(),
  })
  .openapi('AccessToken');

export const createdAccessTokenSchema = accessTokenSchema
  .extend({ token: z.string().openapi({ description: 'The full token. Returned only here, once.' }) })
  .openapi('CreatedAccessToken');

export const createAccessTokenBody = z.object({
  name: z.string().trim().min(1).max(255).openapi({ example: 'CRM integration' }),
  scopes: z
    .array(z.string())
    .max(SCOPES.length * 2)
    .default([])
    .openapi({
      description: `Any of: ${SCOPES.join(', ')}. Empty or omitted means full access. A token can grant only scopes it holds itself, and full access only if it has it (else 403).`,
    }),
  allowed_ips: z
    .array(z.string().max(64))
    .max(100)
    .default([])
    .openapi({
      description:
        'IPv4/IPv6 addresses or CIDR ranges. Empty means any IP. A token with an allow-list must set one, each entry within one of its own (else 403).',
      example: ['203.0.113.0/24'],
    }),
  expires_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .openapi({ description: 'Omitted or null: never expires. A token that expires must set one no later than its own (else 403).' }),
  user_id: z.number().int().positive().optional().openapi({ description: 'Admins may mint a token for another user of the account.' }),
});

export const createAccessToken = tenantRoute(
  { scopes: ['account:write'], idempotent: true },
  {
    method: 'post',
    path: '/access_tokens',
    tags: ['Access tokens'],
    summary: 'Create an API token; the full value is returned once',
    description:
      'The new token never holds more than the token creating it: its scopes, allowed IPs and expiry stay within the caller’s; anything beyond is refused with 403 naming it.',
    request: { body: { required: true, content: { 'application/json': { schema: createAccessTokenBody } } } },
    responses: {
      201: { description: 'The token, with its full value.', content: { 'application/json': { schema: createdAccessTokenSchema } } },
    },
  },
);

export const listAccessTokens = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/access_tokens',
    tags: ['Access tokens'],
    summary: 'List API tokens (admins see the account’s, others their own)',
    request: { query: cursorQuerySchema },
    responses: {
      200: {
        description: 'A page of tokens, never with their values.',
        content: { 'application/json': { schema: z.object({ data: z.array(accessTokenSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);

export const getAccessToken = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/access_tokens/{id}',
    tags: ['Access tokens'],
    summary: 'Get an API token',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The token.', content: { 'application/json': { schema: accessTokenSchema } } } },
  },
);

export const revokeAccessToken = tenantRoute(
  { scopes: ['account:write'] },
  {
    method: 'post',
    path: '/access_tokens/{id}/revoke',
    tags: ['Access tokens'],
    summary: 'Revoke an API token, immediately and irreversibly',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The revoked token.', content: { 'application/json': { schema: accessTokenSchema } } } },
  },
);
