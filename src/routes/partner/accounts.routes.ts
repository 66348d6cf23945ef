// Route declarations for the partner control plane's accounts (decisions.md › Bootstrap).
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { PLAN_NAMES } from '../../lib/plans';
import { idParamsSchema } from '../openapi-helpers';
import { accountSchema, accountUpdateSchema } from '../settings/settings.routes';
import { partnerRoute } from './partner-route';

/** The tenant's Account as operators see it: the same fields plus the suspension. */
export const partnerAccountSchema = accountSchema
  .extend({
    plan: z.enum(PLAN_NAMES),
    suspended: z.boolean().openapi({ description: 'A suspended account’s API tokens are refused with 403.' }),
    suspended_at: z.string().nullable(),
    shard: z.number().int().openapi({ description: 'The tenant database (SHARD_<n>) holding the account’s rows.' }),
    moving_to_shard: z.number().int().nullable().openapi({
      description: 'While a move runs: the shard the rows are being copied to; the account’s writes answer 409 until it is done.',
    }),
  })
  .openapi('PartnerAccount');

const accountName = z.string().trim().min(1).max(255);
const plan = z.enum(PLAN_NAMES);

export const createAccountBody = z.object({
  name: accountName.openapi({ example: 'Acme Inc.' }),
  plan: plan.default('free').openapi({ description: 'Defaults to free.' }),
  locale: accountUpdateSchema.shape.locale,
  timezone: accountUpdateSchema.shape.timezone,
});

export const updateAccountBody = z
  .object({
    name: accountName.optional(),
    plan: plan.optional(),
    suspended: z.boolean().optional().openapi({ description: 'true refuses the account’s tokens with 403; false lifts it.' }),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Send at least one of name, plan, suspended');

export const mintTokenBody = z.object({
  email: z.string().trim().max(255).pipe(z.email()).optional().openapi({
    description: 'The admin to mint for; created as an admin when the account has no user with this email. Omit to use the first admin.',
  }),
  name: z.string().trim().max(255).optional().openapi({ description: 'Name of the user created from `email`.' }),
  token_name: z.string().trim().min(1).max(255).default('Partner-issued admin token'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

const accountResponse = (description: string) => ({ description, content: { 'application/json': { schema: partnerAccountSchema } } });

export const createAccount = partnerRoute(
  { idempotent: true },
  {
    method: 'post',
    path: '/accounts',
    tags: ['Accounts'],
    summary: 'Create an account',
    request: { body: { required: true, content: { 'application/json': { schema: createAccountBody } } } },
    responses: { 201: accountResponse('The new account.') },
  },
);

export const listAccounts = partnerRoute(
  {},
  {
    method: 'get',
    path: '/accounts',
    tags: ['Accounts'],
    summary: 'List accounts, newest first',
    request: {
      query: cursorQuerySchema.extend({
        plan: plan.optional(),
        suspended: z.enum(['true', 'false']).optional().openapi({ description: 'Only suspended (true) or active (false) accounts.' }),
      }),
    },
    responses: {
      200: {
        description: 'A page of accounts.',
        content: { 'application/json': { schema: z.object({ data: z.array(partnerAccountSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);

export const getAccount = partnerRoute(
  {},
  {
    method: 'get',
    path: '/accounts/{id}',
    tags: ['Accounts'],
    summary: 'Get an account',
    request: { params: idParamsSchema },
    responses: { 200: accountResponse('The account.') },
  },
);

export const updateAccount = partnerRoute(
  {},
  {
    method: 'patch',
    path: '/accounts/{id}',
    tags: ['Accounts'],
    summary: 'Rename an account, change its plan, or suspend it',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: updateAccountBody } } } },
    responses: { 200: accountResponse('The updated account.') },
  },
);

export const mintAccessToken = partnerRoute(
  { idempotent: true },
  {
    method: 'post',
    path: '/accounts/{id}/access_tokens',
    tags: ['Accounts'],
    summary: 'Mint a full-access tenant API token for an admin of the account',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: mintTokenBody } } } },
    responses: {
      201: {
        description: 'The token, with its full value (returned only here), and the admin it belongs to.',
        content: {
          'application/json': {
            schema: z
              .object({
                id: z.number().int(),
                account_id: z.number().int(),
                name: z.string(),
                token: z.string(),
                token_prefix: z.string(),
                expires_at: z.string().nullable(),
                created_at: z.string(),
                user: z.object({ id: z.number().int(), email: z.string(), name: z.string(), role: z.string(), created: z.boolean() }),
              })
              .openapi('PartnerMintedToken'),
          },
        },
      },
    },
  },
);

export const moveAccountBody = z.object({
  shard: z.number().int().min(0).openapi({ description: 'The shard to move the account to (SHARD_<n> in wrangler.toml).', example: 1 }),
});

export const moveAccount = partnerRoute(
  { errors: [409] },
  {
    method: 'post',
    path: '/accounts/{id}/move',
    tags: ['Accounts'],
    summary: 'Move an account to another shard',
    description:
      'Copies every row of the account to the shard given, keeping ids, then points the account at it and deletes the rows from ' +
      'the old shard. Meanwhile the account’s writes answer 409 with Retry-After and its reads keep working. Uploaded and signed ' +
      'documents (R2) stay where they are. A call that failed half way is resumed by sending the same shard again; 409 while a move ' +
      'to another shard is running, 422 for the shard the account already lives on or a shard that does not exist.',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: moveAccountBody } } } },
    responses: { 200: accountResponse('The account on its new shard.') },
  },
);
