// Builds the Hono app: global middleware, error handling, the tenant API under /api and /api/v1, docs.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env';
import { accountMoving, ApiError } from './lib/errors';
import { isAccountMoving } from './db/errors';
import { requestId } from './middleware/request-id';
import { controlDatabase } from './middleware/databases';
import { d1Timing } from './middleware/d1-timing';
import { customDomainHost } from './middleware/custom-domain-host';
import { mountCustomDomains } from './routes/custom-domains/custom-domains.index';
import { authenticate } from './middleware/auth';
import { auditTrail } from './middleware/audit';
import { rateLimit } from './middleware/rate-limit';
import { tenantRateLimit } from './lib/limits';
import { mountDocs } from './routes/docs/docs.index';
import { throwValidationError } from './routes/openapi-helpers';
import { mountUsers } from './routes/users/users.index';
import { mountSettings } from './routes/settings/settings.index';
import { documentSmsStatusCallback, mountSmsStatusCallback } from './routes/sms-status/sms-status.index';
import { mountPayments, mountPaymentsWebhook } from './routes/payments/payments.index';
import { mountAccessTokens } from './routes/access-tokens/access-tokens.index';
import { mountAuditEvents } from './routes/audit-events/audit-events.index';
import { createDevRoutes } from './routes/dev/dev.index';
import { mountSubmissions } from './routes/submissions/submissions.index';
import { mountBulkSends } from './routes/bulk-sends/bulk-sends.index';
import { mountTemplates } from './routes/templates/templates.index';
import { mountSavedFields } from './routes/saved-fields/saved-fields.index';
import { mountBrands } from './routes/brands/brands.index';
import { mountBrandingOptions } from './routes/branding-options/branding-options.index';
import { mountStripeWebhook, mountSubscription } from './routes/subscription/subscription.index';
import { createPartnerApi } from './routes/partner/partner.index';
import { mountWebhooks } from './routes/webhooks/webhooks.index';
import { mountTools } from './routes/tools/tools.index';
import { mountSubmissionDocuments } from './routes/submission-documents/submission-documents.index';
import { mountSignatureLevels } from './routes/signature-levels/signature-levels.index';
import { mountDocumentLinks } from './routes/document-links/document-links.index';
import { createPublicLinkRoutes, documentPublicLinkRoutes } from './routes/document-link-downloads/document-link-downloads.index';
import { PUBLIC_LINK_PREFIX } from './services/document-links/links';
import { outboxDrain } from './middleware/outbox-drain';
import { createSigningRoutes, documentSigningRoutes } from './routes/signing/signing.index';
import { SIGNING_PREFIX } from './routes/signing/signing.routes';
import { isDevelopment } from './lib/environment';
import { createSettingsConsole } from './console/settings/settings.index';
import { createSubmissionsConsole, createTemplatesConsole } from './console/templates/templates.index';
import { mountMfaConsole } from './console/mfa/mfa.index';
import { createSignInRoutes } from './console/sign-in/sign-in.routes';
import { createOAuthRoutes } from './routes/oauth/oauth.index';
import { createAppsPages } from './routes/console-apps/apps.index';
import { embedCors, mountEmbed } from './routes/embed/embed.index';
import { mountEmbedScripts } from './routes/embed-scripts/embed-scripts.index';
import { mountEmbeddedBuilder } from './console/templates/embedded-builder-page';
import { createMcpRoutes } from './routes/mcp/mcp.index';

/** `/api/v1/x` is the pinned spelling of `/api/x` (spec › Versioning rule 2): both reach one route. */
function routingPath(request: Request): string {
  const path = getPath(request);
  return path === '/api/v1' || path.startsWith('/api/v1/') ? `/api${path.slice('/api/v1'.length)}` : path;
}

export function errorResponse(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json({ error: err.error, ...err.extra }, err.status);
  }
  // A write that reached an account's shard while the account moves (src/db/schema/account-fences.ts),
  // from any route: the client retries it once the move is done.
  if (isAccountMoving(err)) return errorResponse(accountMoving(), c);
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ error: err.message || 'Bad request.' }, err.status as ContentfulStatusCode);
  }
  // A real fault: log it with the request id, answer without internals (spec › Errors, 500).
  console.error(`[${c.var.requestId}] ${c.req.method} ${c.req.path}:`, err);
  const body: Record<string, unknown> = { error: 'Internal server error.', reference: c.var.requestId };
  if (isDevelopment(c.env)) body.detail = err.message;
  return c.json(body, 500);
}

export function createTenantApi(): OpenAPIHono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: throwValidationError });
  api.use('*', authenticate());
  // Keyed by the token, not the IP or account (spec › Limits: "per API token").
  api.use('*', rateLimit({ key: (c) => c.var.principal.credential.key, limit: (c) => tenantRateLimit(c.env) }));
  api.use('*', auditTrail());
  api.use('*', outboxDrain({ when: (c) => c.var.principal.hasWebhooks }));
  mountUsers(api);
  mountSettings(api);
  mountAccessTokens(api);
  mountAuditEvents(api);
  mountSubmissions(api);
  mountBulkSends(api);
  mountTemplates(api);
  mountSavedFields(api);
  mountBrands(api);
  mountBrandingOptions(api);
  mountSubscription(api);
  mountPayments(api);
  documentSmsStatusCallback(api);
  mountWebhooks(api);
  mountTools(api);
  mountSubmissionDocuments(api);
  mountCustomDomains(api);
  mountDocumentLinks(api);
  mountEmbed(api);
  mountSignatureLevels(api);
  return api;
}

export function createApp() {
  const app = new Hono<AppEnv>({ getPath: routingPath });
  app.use('*', requestId());
  // First: every D1 call of the request goes through its observers (src/db/observed-d1.ts).
  app.use('*', controlDatabase());
  app.use('*', d1Timing());
  app.use('*', customDomainHost());
  app.onError(errorResponse);
  app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404));

  const api = createTenantApi();
  const signing = createSigningRoutes();
  // One OpenAPI document: the signing page's JSON routes are listed with the tenant API's.
  documentSigningRoutes(api, signing);
  const publicLinks = createPublicLinkRoutes();
  documentPublicLinkRoutes(api, publicLinks);
  mountDocs(app, api);
  // Future versions get their own prefix; until then /api/v2 is simply not found (JSON 404 above).
  app.all('/api/v2/*', (c) => c.json({ error: `API version v2 does not exist; use /api or /api/v1.` }, 404));
  // Before the tenant API: its authenticate() would otherwise refuse partner keys on these paths.
  app.route('/api/partner/v1', createPartnerApi());
  // Also before the tenant API: Stripe signs its deliveries and sends no API token.
  mountStripeWebhook(app);
  mountPaymentsWebhook(app);
  // The SMS provider's status callbacks: signed with the SMS auth token, no API token.
  mountSmsStatusCallback(app);
  app.use('/api/embed/template/*', embedCors());
  app.use('/api/embed/submission/*', embedCors());
  app.route('/api', api);
  app.route('/dev', createDevRoutes());
  app.route('/', createOAuthRoutes());
  // Tool calls run through the whole app as REST requests (src/routes/mcp/mcp.index.ts).
  app.route(
    '/',
    createMcpRoutes(async (request, c) => app.fetch(request, c.env, c.executionCtx)),
  );
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
