// Route declarations for account settings.
import { z } from '@hono/zod-openapi';
import { tenantRoute } from '../openapi-helpers';

export const accountSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    locale: z.string(),
    timezone: z.string(),
    mfa_enforced: z.boolean(),
    embed_origins: z.array(z.string()).openapi({
      description: 'Origins allowed to embed the signing page in an iframe (its `frame-ancestors`); empty means none.',
      example: ['https://app.example.com'],
    }),
    plan: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Account');

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

export const accountUpdateSchema = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  locale: z.string().refine(isLocale, 'must be a BCP 47 language tag such as en-US or de').optional().openapi({ example: 'en-US' }),
  timezone: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')
    .optional()
    .openapi({ example: 'Europe/Berlin' }),
  mfa_enforced: z.boolean().optional(),
  embed_origins: z
    .array(z.string())
    .optional()
    .openapi({
      description:
        'Origins that may embed the signing page (`<signing-form>`): each `https://host[:port]` with no path; http only in development; at most 20. ' +
        'Stored normalised (lower-case host, default port dropped, duplicates removed). `[]` allows none.',
      example: ['https://app.example.com'],
    }),
});

export const getAccountSettings = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/account',
    tags: ['Settings'],
    summary: 'The account’s settings',
    responses: { 200: { description: 'The account.', content: { 'application/json': { schema: z.object({ account: accountSchema }) } } } },
  },
);

export const updateAccountSettings = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/settings/account',
    tags: ['Settings'],
    summary: 'Update the account’s name, locale, time zone, MFA enforcement or embedding origins',
    description:
      'Admins only. With `mfa_enforced: true`, users without two-factor authentication can sign in to the console only to enrol, and ' +
      'their sessions get 403 on every API call until they have. Turning it on needs the calling user to have two-factor ' +
      'authentication themselves (422 otherwise), so that nobody locks themselves out with it.',
    request: { body: { required: true, content: { 'application/json': { schema: accountUpdateSchema } } } },
    responses: {
      200: { description: 'The updated account.', content: { 'application/json': { schema: z.object({ account: accountSchema }) } } },
    },
  },
);
