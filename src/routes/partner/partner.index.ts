// The partner control plane at /api/partner/v1: its own app, auth, rate limit and OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { PARTNER_RATE_LIMIT } from '../../lib/limits';
import { validationError } from '../../lib/validation';
import { authenticatePartner } from '../../middleware/partner-auth';
import { rateLimit } from '../../middleware/rate-limit';
import { auditTrail, type AuditSubject } from '../../middleware/audit';
import type { Context } from 'hono';
import * as handlers from './accounts.handlers';
import * as routes from './accounts.routes';
import { withResponseHeaders } from '../openapi-headers';

/** Partner actions go to the trail of the account they act on (the handler names it), by the key's prefix. */
function partnerSubject(c: Context<AppEnv>): AuditSubject | undefined {
  const accountId = c.get('audit')?.accountId;
  if (accountId === undefined) return undefined;
  return { accountId, userId: null, accessTokenId: null, actor: c.var.partnerKeyPrefix };
}

export function createPartnerApi(): OpenAPIHono<AppEnv> {
  const partner = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      // `data` is the input the validator was given: sentences can name list elements by their name.
      if (!result.success) throw validationError(result.error, (result as { data?: unknown }).data);
    },
  });

  partner.openAPIRegistry.registerComponent('securitySchemes', 'PartnerKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An operator key from the PARTNER_API_KEYS secret (`ptk_…`). Tenant API tokens are refused here.',
  });
  let document: unknown;
  // Public like /api/openapi.json: it describes the surface, not any account.
  partner.get('/openapi.json', (c) => {
    document ??= withResponseHeaders(
      partner.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: `${c.env.SERVICE_NAME} partner API`,
          version: 'partner-v1',
          description:
            'Operator control plane: create, list, update, suspend and move accounts, and mint their first admin token. ' +
            `Authenticate with a partner key; ${PARTNER_RATE_LIMIT} requests per minute per key. Responses carry X-API-Version: partner-v1.`,
        },
        servers: [{ url: '/api/partner/v1' }],
      }),
    );
    return c.json(document);
  });

  // Registered after the document, so only the document is public; every other path, unknown ones
  // included, needs a partner key first.
  partner.use('*', authenticatePartner());
  partner.use('*', rateLimit({ key: (c) => `partner:${c.var.partnerKeyHash}`, limit: PARTNER_RATE_LIMIT }));
  partner.use('*', auditTrail({ subject: partnerSubject }));

  partner.openapi(routes.createAccount, handlers.createAccount);
  partner.openapi(routes.listAccounts, handlers.listAccounts);
  partner.openapi(routes.getAccount, handlers.getAccount);
  partner.openapi(routes.updateAccount, handlers.updateAccount);
  partner.openapi(routes.mintAccessToken, handlers.mintAccessToken);
  partner.openapi(routes.moveAccount, handlers.moveAccount);
  // Answer unknown partner paths here: falling through would reach the tenant API's authentication.
  partner.all('*', (c) => c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404));
  return partner;
}
