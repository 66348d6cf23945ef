// The JSON API under /api (and /api/v1): the tenant API, its OpenAPI document, the partner API and the
// payment webhooks. The Worker's entry builds this part on the first /api request (src/app-parts.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env';
import { createBaseApp } from './app-base';
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
import { outboxDrain } from './middleware/outbox-drain';
import { createSigningRoutes, documentSigningRoutes } from './routes/signing/signing.index';
import { embedCors, mountEmbed } from './routes/embed/embed.index';

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

/**
 * Mounts everything under /api on `app`. One OpenAPI document lists the signing page's and the public
 * links' JSON routes with the tenant API's: `documented` are those routers (mounted elsewhere).
 */
export function mountApi(app: Hono<AppEnv>, documented: { signing: OpenAPIHono<AppEnv>; publicLinks: OpenAPIHono<AppEnv> }) {
  const api = createTenantApi();
  documentSigningRoutes(api, documented.signing);
  documentPublicLinkRoutes(api, documented.publicLinks);
  mountDocs(app, api);
  // Future versions get their own prefix; until then /api/v2 is simply not found (JSON 404).
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
}

/** The /api part on its own: what the entry builds for a request under /api. */
export function createApiApp(): Hono<AppEnv> {
  const app = createBaseApp();
  mountApi(app, { signing: createSigningRoutes(), publicLinks: createPublicLinkRoutes() });
  return app;
}
