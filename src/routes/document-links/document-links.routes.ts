// Route declarations for public document links (spec › Public document links; docs/document-links.md).
import { z } from '@hono/zod-openapi';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';

export const MAX_EXPIRY_DAYS = 3650;

const expiresInDays = z
  .number({ error: 'must be a whole number of days or null' })
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(MAX_EXPIRY_DAYS, `must be at most ${MAX_EXPIRY_DAYS} days`)
  .nullable();

export const documentLinkSettingsSchema = z
  .object({
    enabled: z.boolean().openapi({ description: 'Whether documents in webhook payloads carry `url` and `url_expires_at`.' }),
    expires_in_days: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Lifetime of links minted from now on; null means never.', example: 30 }),
  })
  .openapi('DocumentLinkSettings');

const settingsResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ document_links: documentLinkSettingsSchema }) } },
});

export const getDocumentLinkSettings = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/document_links',
    tags: ['Settings'],
    summary: 'Public document link settings',
    responses: { 200: settingsResponse('The settings.') },
  },
);

export const updateDocumentLinkSettings = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/settings/document_links',
    tags: ['Settings'],
    summary: 'Turn public document links in webhook payloads on or off, and set their lifetime',
    description:
      'Fields left out keep their value. `expires_in_days` (1–3650, null for never; default 30) applies to links minted ' +
      'from now on: links already sent keep the expiry they were minted with. Turning links off stops adding them to ' +
      'payloads; it does not stop links already sent — `POST /api/settings/document_links/revoke` does.',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              enabled: z.boolean({ error: 'must be true or false' }).optional(),
              expires_in_days: expiresInDays.optional().openapi({ example: 30 }),
            }),
          },
        },
      },
    },
    responses: { 200: settingsResponse('The updated settings.') },
  },
);

export const revokeDocumentLinks = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'post',
    path: '/settings/document_links/revoke',
    tags: ['Settings'],
    summary: 'Stop every public document link already sent',
    description: 'Takes effect at once: every link minted before this call answers 410. Links minted afterwards work.',
    responses: { 200: settingsResponse('The settings (unchanged: revoking does not turn links off).') },
  },
);

export const mintLinkParams = idParamsSchema.extend({
  document_id: z.coerce
    .number({ error: 'must be an integer id' })
    .int('must be an integer id')
    .positive('must be a positive integer id')
    .openapi({
      param: { name: 'document_id', in: 'path' },
      description: 'A document id of the submission (its `documents[].id`).',
      example: 1,
    }),
});

export const documentLinkSchema = z
  .object({
    url: z.string().openapi({ description: 'Opens the signed PDF without credentials.', example: 'https://sign.example.com/l/…' }),
    expires_at: z.string().nullable().openapi({ description: 'When the link stops working; null for never.' }),
  })
  .openapi('DocumentLink');

export const mintDocumentLink = tenantRoute(
  { scopes: ['submissions:write'], errors: [410] },
  {
    method: 'post',
    path: '/submissions/{id}/documents/{document_id}/link',
    tags: ['Submissions'],
    summary: 'Mint a public link to one signed document',
    description:
      'Works whether or not automatic links are enabled. `expires_in_days` (1–3650, or null for never) overrides the ' +
      'account’s setting for this link. 422 while the submission is not completed.',
    request: {
      params: mintLinkParams,
      body: { required: false, content: { 'application/json': { schema: z.object({ expires_in_days: expiresInDays.optional() }) } } },
    },
    responses: { 201: { description: 'The link.', content: { 'application/json': { schema: documentLinkSchema } } } },
  },
);
