// The signing page under /s/<slug> (spec › What the service does; Submitter states, rules 1–4). The slug
// is the credential: no API token here. State-changing requests must come from the page's own origin.
import { OpenAPIHono } from '@hono/zod-openapi';
import { mergePath } from 'hono/utils/url';
import type { AppEnv } from '../../app-env';
import { outboxDrain } from '../../middleware/outbox-drain';
import { sameOrigin } from '../../middleware/same-origin';
import * as h from './signing.handlers';
import * as qes from './signing.qes-handlers';
import * as routes from './signing.routes';
import { signingRateLimits } from './signing.limits';
import { signerErrors } from '../signer-refusals';

/** The router mounted at SIGNING_PREFIX: the HTML pages and downloads, and the declared JSON routes. */
export function createSigningRoutes(): OpenAPIHono<AppEnv> {
  const s = new OpenAPIHono<AppEnv>({ defaultHook: routes.signingValidationError });
  // Refusals reach the app's onError worded in the signer's language.
  s.onError(signerErrors);
  // Counted first, so even a refused or unknown-link request costs its sender a slot.
  s.use('*', ...signingRateLimits());
  s.use('*', sameOrigin());
  // Opening the form (a GET) fires form.viewed, so GETs drain the outbox too.
  s.use('*', outboxDrain({ methods: new Set(['GET', 'POST', 'PUT']) }));
  // Pages and files, not JSON: plain routes, outside the OpenAPI document (the qes ones are described
  // by the submit route's declaration).
  s.get('/:slug', h.showPage);
  s.get('/:slug/documents/:document_uuid', h.streamDocument);
  s.get('/:slug/documents/:document_uuid/pages/:page', h.pageImage);
  s.get('/:slug/download', h.downloadSigned);
  s.get('/:slug/qes/callback', qes.qesCallback);
  s.get('/:slug/qes/retry', qes.qesRetry);
  s.openapi(routes.postSendCode, h.postSendCode);
  s.openapi(routes.postCheckCode, h.postCheckCode);
  s.openapi(routes.postLinkOpened, h.postLinkOpened);
  s.openapi(routes.postOpen, h.postOpen);
  s.openapi(routes.getDocumentText, h.documentText);
  s.openapi(routes.putValues, h.putValues);
  s.openapi(routes.postAttachment, h.postAttachment);
  s.openapi(routes.postConsent, h.postConsent);
  s.openapi(routes.postSubmit, h.postSubmit);
  s.openapi(routes.postDecline, h.postDecline);
  s.openapi(routes.postDelegate, h.postDelegate);
  s.openapi(routes.postInviteWitness, h.postInviteWitness);
  s.openapi(routes.postPaymentCheckout, h.postPaymentCheckout);
  return s;
}

/**
 * Adds the signing router's declared routes to the tenant API's OpenAPI document, at their real paths
 * (/s/…; each declares the service root as its server). Their declarations are the only description.
 */
export function documentSigningRoutes(api: OpenAPIHono<AppEnv>, signing: OpenAPIHono<AppEnv>) {
  for (const definition of signing.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    api.openAPIRegistry.registerPath({ ...definition.route, path: mergePath(routes.SIGNING_PREFIX, definition.route.path) });
  }
}
