// Route declarations for brands: named branding a template or submission picks by `preferences.brand_id`
// (spec › Brand, › Create brand; decisions.md › Brands and domains: create, update and delete admin-only).
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { BRANDING_KEYS } from '../../shared/branding-keys';
import { errorSchema, idParamsSchema, tenantRoute } from '../openapi-helpers';

export const brandingSchema = z
  .object({
    display_title: z.string().optional().openapi({ description: 'Header and email title; first part of the tab title.' }),
    logo_url: z.string().optional().openapi({ description: 'http(s) URL.', example: 'https://example.com/logo.png' }),
    company_name: z.string().optional().openapi({ description: 'Logo alt text and email wordmark; second part of the tab title.' }),
    favicon_url: z.string().optional().openapi({ description: 'http(s) URL; falls back to logo_url.' }),
    primary_button_color: z.string().optional().openapi({ description: 'Button and accent colour, `#rrggbb`.', example: '#0f766e' }),
    header_color: z.string().optional().openapi({
      description: '`#rrggbb` with luminance 0.299R + 0.587G + 0.114B at most 50%; default: primary_button_color darkened 20%.',
    }),
    show_branding: z.boolean().optional().openapi({ description: 'false hides the powered-by line.' }),
  })
  .openapi('Branding');

export const brandSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    branding: brandingSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Brand');

// Branding is checked by the service, not here: the spec answers an unknown key or a wrong type with a
// 422 naming the key, where a schema mismatch would be a 400.
const brandingInput = z.record(z.string(), z.unknown()).openapi({
  description: `Only ${BRANDING_KEYS.join(', ')}. A key sent as null or "" is dropped (on update: removed).`,
  example: { company_name: 'Acme', primary_button_color: '#0f766e', show_branding: false },
});
const name = z
  .string()
  .openapi({ description: 'Required; trimmed; at most 120 characters; unique in the account ignoring case.', example: 'Acme' });

export const createBrandBody = z.object({ name, branding: brandingInput.optional() });
export const updateBrandBody = z.object({ name: name.optional(), branding: brandingInput.optional() });

const brandRefusal = {
  description:
    'A missing, blank, duplicate (ignoring case) or over-120-character name, a name or branding of the wrong type, or invalid branding ' +
    '(unknown key, non-http(s) URL, header_color not dark); `error` is a sentence or a list of them (spec › Create brand). Malformed JSON is 400.',
  content: { 'application/json': { schema: errorSchema } },
};

const brandResponse = { content: { 'application/json': { schema: z.object({ brand: brandSchema }) } } };

export const listBrands = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/brands',
    tags: ['Brands'],
    summary: 'List brands, newest first',
    request: { query: cursorQuerySchema },
    responses: {
      200: {
        description: 'A page of brands.',
        content: { 'application/json': { schema: z.object({ data: z.array(brandSchema), pagination: cursorPaginationSchema }) } },
      },
    },
  },
);

export const createBrand = tenantRoute(
  { scopes: ['account:write'], admin: true, idempotent: true },
  {
    method: 'post',
    path: '/brands',
    tags: ['Brands'],
    summary: 'Create a brand',
    request: { body: { required: true, content: { 'application/json': { schema: createBrandBody } } } },
    responses: { 201: { description: 'The brand.', ...brandResponse }, 422: brandRefusal },
  },
);

export const getBrand = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/brands/{id}',
    tags: ['Brands'],
    summary: 'Get a brand',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The brand.', ...brandResponse } },
  },
);

export const updateBrand = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/brands/{id}',
    tags: ['Brands'],
    summary: 'Rename a brand or change its branding',
    description:
      'Branding keys sent are set, keys sent as null or "" are removed, keys left out stay. Signers who have not finished see the change.',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: updateBrandBody } } } },
    responses: { 200: { description: 'The brand.', ...brandResponse }, 422: brandRefusal },
  },
);

export const deleteBrand = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'delete',
    path: '/brands/{id}',
    tags: ['Brands'],
    summary: 'Delete a brand',
    description: 'Templates and submissions that use it fall back to their own branding keys, then the custom domain and account.',
    request: { params: idParamsSchema },
    responses: { 204: { description: 'Deleted.' } },
  },
);
