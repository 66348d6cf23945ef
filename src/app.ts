// Builds the whole Hono app: the /api part (src/app-api.ts), the signing and public-link pages, the
// consoles, OAuth, MCP and the development routes. The Worker's entry builds it for requests outside
// /api, /s and /l, and the /api and /s, /l parts on their own (src/app-parts.ts).
import { createBaseApp } from './app-base';
import { mountApi } from './app-api';
import { createDevRoutes } from './routes/dev/dev.index';
import { createPublicLinkRoutes } from './routes/document-link-downloads/document-link-downloads.index';
import { PUBLIC_LINK_PREFIX } from './services/document-links/links';
import { createSigningRoutes } from './routes/signing/signing.index';
import { SIGNING_PREFIX } from './routes/signing/signing.routes';
import { createSettingsConsole } from './console/settings/settings.index';
import { createSubmissionsConsole, createTemplatesConsole } from './console/templates/templates.index';
import { mountMfaConsole } from './console/mfa/mfa.index';
import { createSignInRoutes } from './console/sign-in/sign-in.routes';
import { createOAuthRoutes } from './routes/oauth/oauth.index';
import { createAppsPages } from './routes/console-apps/apps.index';
import { mountEmbedScripts } from './routes/embed-scripts/embed-scripts.index';
import { mountEmbeddedBuilder } from './console/templates/embedded-builder-page';
import { createMcpRoutes, type Dispatch } from './routes/mcp/mcp.index';

/** `dispatch`: how an MCP tool call reaches the REST routes (the Worker's own fetch; default this app's). */
export function createApp(dispatch?: Dispatch) {
  const app = createBaseApp();
  const signing = createSigningRoutes();
  const publicLinks = createPublicLinkRoutes();
  mountApi(app, { signing, publicLinks });
  app.route('/dev', createDevRoutes());
  app.route('/', createOAuthRoutes());
  // Tool calls run through the whole Worker as REST requests (src/routes/mcp/mcp.index.ts).
  app.route('/', createMcpRoutes(dispatch ?? (async (request, c) => app.fetch(request, c.env, c.executionCtx))));
  app.route('/settings/apps', createAppsPages());
  app.route(SIGNING_PREFIX, signing);
  mountEmbedScripts(app);
  mountEmbeddedBuilder(app);
  app.route(PUBLIC_LINK_PREFIX, publicLinks);
  app.route('/settings', createSettingsConsole());
  app.route('/templates', createTemplatesConsole());
  app.route('/submissions', createSubmissionsConsole());
  mountMfaConsole(app);
  app.route('/', createSignInRoutes());
  return app;
}
