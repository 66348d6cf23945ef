// Route declarations for users: the current user, team members, and (admins) managing them.
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { ROLES } from '../../lib/scopes';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';
import { accountSchema } from '../settings/settings.routes';

export const userSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    email: z.string().openapi({ description: 'The address the user signs in with.' }),
    pending_email: z.string().nullable().openapi({
      description:
        'A new address an admin set that its owner has not confirmed yet (a link was emailed to it); `email` keeps working until then.',
    }),
    name: z.string(),
    role: z.enum(ROLES),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('User');

const name = z.string().trim().max(255);
const email = z.string().trim().max(255).pipe(z.email());

export const getCurrentUser = tenantRoute(
  { scopes: ['users:read'] },
  {
    method: 'get',
    path: '/user',
    tags: ['Users'],
    summary: 'The user the token belongs to, with its account',
    responses: {
      200: {
        description: 'The current user.',
        content: { 'application/json': { schema: userSchema.extend({ account: accountSchema }).openapi('CurrentUser') } },
      },
    },
  },
);

export const listUsers = tenantRoute(
  { scopes: ['users:read'] },
  {
    method: 'get',
    path: '/users',
    tags: ['Users'],
    summary: 'List the account’s users, newest first',
    request: { query: cursorQuerySchema },
    responses: {
      200: {
        description: 'A page of users.',
        content: { 'application/json': { schema: z.object({ data: z.array(userSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);

export const getUser = tenantRoute(
  { scopes: ['users:read'] },
  {
    method: 'get',
    path: '/users/{id}',
    tags: ['Users'],
    summary: 'Get a user',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The user.', content: { 'application/json': { schema: userSchema } } } },
  },
);

export const createUser = tenantRoute(
  { scopes: ['account:write'], admin: true, idempotent: true },
  {
    method: 'post',
    path: '/users',
    tags: ['Users'],
    summary: 'Add a team member',
    description:
      'The new user is emailed an invitation: a one-time link (`{base_url}/password/set?token=…`, valid 7 days) to choose a console password.',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({ email, name: name.default(''), role: z.enum(ROLES).default('editor') }),
          },
        },
      },
    },
    responses: { 201: { description: 'The new user.', content: { 'application/json': { schema: userSchema } } } },
  },
);

export const updateUser = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/users/{id}',
    tags: ['Users'],
    summary: 'Change a team member’s name, email or role',
    description:
      'Raising the role (viewer → editor → admin) ends every console session of the user: they sign in again. ' +
      'A new `email` is not applied at once: it becomes `pending_email` and a one-time link (7 days) is emailed to it; once ' +
      'its owner opens the link it becomes `email`. Until then the user signs in with the previous address.',
    request: {
      params: idParamsSchema,
      body: {
        required: true,
        content: {
          'application/json': { schema: z.object({ email: email.optional(), name: name.optional(), role: z.enum(ROLES).optional() }) },
        },
      },
    },
    responses: { 200: { description: 'The updated user.', content: { 'application/json': { schema: userSchema } } } },
  },
);

export const archiveUser = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'delete',
    path: '/users/{id}',
    tags: ['Users'],
    summary: 'Remove a team member; their API tokens and console sessions stop working at once',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The removed user.', content: { 'application/json': { schema: userSchema } } } },
  },
);
