// Route declaration for the choices a template editor offers: the account's brands and its active
// custom signing domains (spec › Other endpoints; issue 17 › 4).
import { z } from '@hono/zod-openapi';
import { tenantRoute } from '../openapi-helpers';

export const brandingOptionsSchema = z
  .object({
    brands: z
      .array(z.object({ id: z.number().int(), name: z.string() }))
      .openapi({ description: 'Every brand of the account, by name: values for `preferences.brand_id`.' }),
    custom_domains: z
      .array(z.object({ id: z.number().int(), hostname: z.string(), is_default: z.boolean() }))
      .openapi({ description: 'The account’s active custom domains only: values for `preferences.custom_domain`.' }),
  })
  .openapi('BrandingOptions');

export const getBrandingOptions = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/branding_options',
    tags: ['Brands'],
    summary: 'Brands and active custom domains a template can use',
    description:
      'Not paginated: every brand of the account and every custom domain whose status is `active` (pending, verified and failed domains are left out).',
    responses: { 200: { description: 'The choices.', content: { 'application/json': { schema: brandingOptionsSchema } } } },
  },
);
