// Handlers for custom signing domains: parse, call src/services/custom-domains, shape the response.
import type { AppRouteHandler } from '../app-route-handler';
import * as domainsDb from '../../db/queries/custom-domains';
import type { CustomDomain } from '../../db/schema/index';
import { paginateByCursor } from '../../lib/pagination';
import { addDomain, changeDomain, findDomain, removeDomain, verifyDomain } from '../../services/custom-domains/custom-domains';
import { serviceHostsOf } from '../../services/custom-domains/host-routing';
import { LEGACY_VERIFY_RECORD_PREFIX, VERIFY_RECORD_PREFIX } from '../../services/custom-domains/ownership';
import type * as routes from './custom-domains.routes';

export function serializeCustomDomain(domain: CustomDomain) {
  return {
    id: domain.id,
    hostname: domain.hostname,
    website_url: domain.websiteUrl,
    branding: domain.branding,
    is_default: domain.isDefault,
    status: domain.status,
    verification: {
      type: 'TXT' as const,
      name: `${VERIFY_RECORD_PREFIX}.${domain.hostname}`,
      legacy_name: `${LEGACY_VERIFY_RECORD_PREFIX}.${domain.hostname}`,
      value: domain.verificationToken,
    },
    certificate_status: domain.certificateStatus,
    verified_at: domain.verifiedAt,
    created_at: domain.createdAt,
    updated_at: domain.updatedAt,
  };
}

export const createCustomDomain: AppRouteHandler<typeof routes.createCustomDomain> = async (c) => {
  const domain = await addDomain(c.var.control, c.var.principal.account.id, c.req.valid('json'), serviceHostsOf(c.req.raw, c.env));
  c.set('audit', { action: 'custom_domain.create', resourceType: 'custom_domain', resourceId: domain.id });
  return c.json(serializeCustomDomain(domain), 201);
};

export const listCustomDomains: AppRouteHandler<typeof routes.listCustomDomains> = async (c) => {
  const accountId = c.var.principal.account.id;
  const page = await paginateByCursor(c.req.valid('query'), (window) => domainsDb.listCustomDomains(c.var.control, accountId, window));
  return c.json({ data: page.data.map(serializeCustomDomain), pagination: page.pagination }, 200);
};

export const getCustomDomain: AppRouteHandler<typeof routes.getCustomDomain> = async (c) => {
  return c.json(serializeCustomDomain(await findDomain(c.var.control, c.var.principal.account.id, c.req.valid('param').id)), 200);
};

export const updateCustomDomain: AppRouteHandler<typeof routes.updateCustomDomain> = async (c) => {
  const { id } = c.req.valid('param');
  const domain = await changeDomain(c.var.control, c.var.principal.account.id, id, c.req.valid('json'));
  c.set('audit', { action: 'custom_domain.update', resourceType: 'custom_domain', resourceId: id });
  return c.json(serializeCustomDomain(domain), 200);
};

export const verifyCustomDomain: AppRouteHandler<typeof routes.verifyCustomDomain> = async (c) => {
  const { id } = c.req.valid('param');
  const domain = await verifyDomain(c.var.control, c.env, c.var.principal.account.id, id);
  c.set('audit', { action: 'custom_domain.verify', resourceType: 'custom_domain', resourceId: id });
  return c.json(serializeCustomDomain(domain), 200);
};

export const deleteCustomDomain: AppRouteHandler<typeof routes.deleteCustomDomain> = async (c) => {
  const { id } = c.req.valid('param');
  await removeDomain(c.var.control, c.env, c.var.principal.account.id, id);
  c.set('audit', { action: 'custom_domain.delete', resourceType: 'custom_domain', resourceId: id });
  return c.body(null, 204);
};
