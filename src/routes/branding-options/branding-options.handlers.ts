// Handler for GET /api/branding_options: the brands (account shard) and active custom domains (control
// database) a template editor can choose, read at once.
import type { AppRouteHandler } from '../app-route-handler';
import { brandChoicesOf } from '../../db/queries/brands';
import { activeDomainsOf } from '../../db/queries/custom-domains';
import type * as routes from './branding-options.routes';

export const getBrandingOptions: AppRouteHandler<typeof routes.getBrandingOptions> = async (c) => {
  const accountId = c.var.principal.account.id;
  const [brands, domains] = await Promise.all([brandChoicesOf(c.var.scope.db, accountId), activeDomainsOf(c.var.control, accountId)]);
  return c.json(
    {
      brands,
      custom_domains: domains
        .map((d) => ({ id: d.id, hostname: d.hostname, is_default: d.isDefault }))
        .sort((x, y) => Number(y.is_default) - Number(x.is_default) || x.hostname.localeCompare(y.hostname)),
    },
    200,
  );
};
