// Mounts the tenant API for public document links: the account's link settings, revoking, and minting one.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './document-links.handlers';
import * as routes from './document-links.routes';

export function mountDocumentLinks(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getDocumentLinkSettings, handlers.getDocumentLinkSettings);
  app.openapi(routes.updateDocumentLinkSettings, handlers.updateDocumentLinkSettings);
  app.openapi(routes.revokeDocumentLinks, handlers.revokeDocumentLinks);
  app.openapi(routes.mintDocumentLink, handlers.mintDocumentLink);
}
