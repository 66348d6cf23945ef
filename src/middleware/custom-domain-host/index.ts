// Requests that arrive on a tenant's custom signing domain (docs/custom-domains.md › Host routing): an
// active domain serves only signing pages, their assets and public links; a known domain that is not
// active yet is refused; any other host is the service's own and passes untouched.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { customDomainForHost, servedOnCustomDomain } from '../../services/custom-domains/host-routing';

export function customDomainHost(): MiddlewareHandler<AppEnv> {
  return async function customDomainHostMiddleware(c, next) {
    const url = new URL(c.req.url);
    const domain = await customDomainForHost(c.var.control, url.hostname.toLowerCase(), c.env.APP_URL);
    if (!domain) return next();
    if (domain.status !== 'active') {
      // 421 Misdirected Request (RFC 9110 § 15.5.20): this server is not (yet) the one for this host.
      return c.json({ error: `${domain.hostname} is not an active signing domain; its owner has not finished verifying it.` }, 421);
    }
    if (!servedOnCustomDomain(url.pathname)) {
      return c.json({ error: `No route for ${c.req.method} ${url.pathname}.` }, 404);
    }
    c.set('customDomain', domain);
    return next();
  };
}
