// The credential-less route that downloads a public document link's PDF, served under /l (PUBLIC_LINK_PREFIX).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { clientIp } from '../../lib/request';
import { rateLimit } from '../../middleware/rate-limit';
import { throwValidationError } from '../openapi-helpers';
import { signerErrors } from '../signer-refusals';
import * as handlers from './document-link-downloads.handlers';
import * as routes from './document-link-downloads.routes';
import { PUBLIC_LINK_PREFIX } from '../../services/document-links/links';

/** Downloads per rolling minute from one client address, across all links. */
export const PUBLIC_LINK_IP_RATE_LIMIT = 120;

export function createPublicLinkRoutes(): OpenAPIHono<AppEnv> {
  const links = new OpenAPIHono<AppEnv>({ defaultHook: throwValidationError });
  // The 429 reaches the app's onError in the visitor's language, or as a page for a browser.
  links.onError(signerErrors);
  // Before any lookup, so that guessing tokens costs the guesser, not the databases.
  links.use(
    '*',
    rateLimit({
      key: (c) => `public-link-ip:${clientIp(c.req.raw) ?? 'unknown'}`,
      limit: PUBLIC_LINK_IP_RATE_LIMIT,
      label: 'from your network address',
      headers: false,
      forSigners: true,
    }),
  );
  links.openapi(routes.openDocumentLink, handlers.openDocumentLink);
  return links;
}

/** Lists the public route in the one OpenAPI document, under its real path. */
export function documentPublicLinkRoutes(api: OpenAPIHono<AppEnv>, links: OpenAPIHono<AppEnv>) {
  for (const definition of links.openAPIRegistry.definitions) {
    if (definition.type === 'route')
      api.openAPIRegistry.registerPath({ ...definition.route, path: `${PUBLIC_LINK_PREFIX}${definition.route.path}` });
  }
}
