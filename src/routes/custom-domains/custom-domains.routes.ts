// Route declarations for custom signing domains (spec › Other endpoints; decisions.md › Brands and domains).
import { z } from '@hono/zod-openapi';
import { BRANDING_KEYS } from '../../shared/branding-keys';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { CUSTOM_DOMAIN_STATUSES } from '../../db/schema/custom-domains';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';

const read = { scopes: ['account:read'], admin: true } as const;
const write = { scopes: ['account:write'], admin: true } as const;
const tags = ['Custom domains'];

const brandingSchema = z.record(z.string(), z.unknown()).openapi({
  description: `Branding keys (${BRANDING_KEYS.join(', ')}); the same rules as a brand's. Keys sent as null or "" are dropped.`,
});

export const customDomainSchema = z
  .object({
    id: z.number().int(),
    hostname: z.string().openapi({ example: 'sign.example.com' }),
    website_url: z.string().nullable(),
    branding: brandingSchema,
    is_default: z
      .boolean()
      .openapi({ description: 'Links of templates that name no custom_domain use the default domain while it is active.' }),
    status: z.enum(CUSTOM_DOMAIN_STATUSES).openapi({
      description:
        'pending: ownership not proven · verified: TXT record seen, activation not finished · active: serves signing pages · failed: Cloudflare refused the host name.',
    }),
    verification: z
      .object({
        type: z.literal('TXT'),
        name: z.string().openapi({ example: '_signing-service-verify.sign.example.com' }),
        legacy_name: z
          .string()
          .openapi({ description: 'Also accepted (spec › Versioning rule 6).', example: '_sign-verify.sign.example.com' }),
        value: z.string(),
      })
      .openapi({ description: 'The DNS record that proves ownership; then call POST /api/custom_domains/{id}/verify.' }),
    certificate_status: z
      .string()
      .nullable()
      .openapi({ description: "Cloudflare's certificate status once activated (e.g. pending_validation, active)." }),
    verified_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CustomDomain');

export const createCustomDomainBody = z.object({
  hostname: z
    .string()
    .max(300)
    .openapi({ example: 'sign.example.com', description: 'A DNS name of your own, at most 253 characters; not an IP address.' }),
  website_url: z.string().max(2048).nullable().optional(),
  branding: z.record(z.string(), z.unknown()).nullable().optional(),
  is_default: z.boolean().optional().openapi({ description: 'Make it the default domain (the previous default stops being one).' }),
});

export const updateCustomDomainBody = createCustomDomainBody.partial().extend({
  hostname: z.string().max(300).optional().openapi({ description: 'Cannot change; accepted only when unchanged.' }),
});

const domainResponse = (description: string, status: 200 | 201 = 200) => ({
  [status]: { description, content: { 'application/json': { schema: customDomainSchema } } },
});

export const createCustomDomain = tenantRoute(
  { ...write, idempotent: true },
  {
    method: 'post',
    path: '/custom_domains',
    tags,
    summary: 'Add a custom signing domain',
    description:
      'The domain starts as `pending`: a claim. Add the TXT record its `verification` names, then verify it. Other accounts may ' +
      'claim the same name; the first to verify takes it and the other claims are removed. A claim not verified within 7 days ' +
      'lapses. A host name another account has verified, or one this account already added, is a 409.',
    request: { body: { required: true, content: { 'application/json': { schema: createCustomDomainBody } } } },
    responses: domainResponse('The domain, with the TXT record that proves ownership.', 201),
  },
);

export const listCustomDomains = tenantRoute(read, {
  method: 'get',
  path: '/custom_domains',
  tags,
  summary: 'List custom signing domains',
  request: { query: cursorQuerySchema },
  responses: {
    200: {
      description: 'A page of domains, newest first.',
      content: { 'application/json': { schema: z.object({ data: z.array(customDomainSchema), pagination: cursorPaginationSchema }) } },
    },
  },
});

export const getCustomDomain = tenantRoute(read, {
  method: 'get',
  path: '/custom_domains/{id}',
  tags,
  summary: 'Get a custom signing domain',
  request: { params: idParamsSchema },
  responses: domainResponse('The domain.'),
});

export const updateCustomDomain = tenantRoute(
  { ...write, errors: [409] },
  {
    method: 'put',
    path: '/custom_domains/{id}',
    tags,
    summary: 'Edit a custom signing domain: website_url, branding, default flag',
    description: 'Branding keys given replace the stored ones; a key sent as null or "" is removed; `branding: null` removes all.',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: updateCustomDomainBody } } } },
    responses: domainResponse('The updated domain.'),
  },
);

export const verifyCustomDomain = tenantRoute(
  { ...write, errors: [409, 502] },
  {
    method: 'post',
    path: '/custom_domains/{id}/verify',
    tags,
    summary: 'Check the ownership TXT record and activate the domain',
    description:
      'Looks up the TXT record over DNS-over-HTTPS (the current name or the legacy one), then activates the host name through ' +
      'Cloudflare for SaaS and returns the certificate status. 422 when the record is missing or wrong; 502 when DNS or Cloudflare ' +
      'could not be reached; 409 when another account verified the name first. Verifying removes other accounts’ pending claims ' +
      'of the name. On an active domain it only refreshes the certificate status.',
    request: { params: idParamsSchema },
    responses: domainResponse('The domain, `active` once activated.'),
  },
);

export const deleteCustomDomain = tenantRoute(
  { ...write, errors: [502] },
  {
    method: 'delete',
    path: '/custom_domains/{id}',
    tags,
    summary: 'Remove a custom signing domain',
    description: 'Its links fall back to the service’s own address at once.',
    request: { params: idParamsSchema },
    responses: { 204: { description: 'Removed.' } },
  },
);
