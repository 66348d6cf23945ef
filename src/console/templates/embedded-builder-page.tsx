// GET /embed/builder/{template_id}?token=<builder embed token>: the template builder framed in an
// integrator's page (issue 15 › 4; docs/embedding.md › The embedded builder). The token comes in the
// query because the server needs its account before answering (frame-ancestors from `embed_origins`);
// the page is no-store and no-referrer, and its script moves the token out of the URL at once. The
// builder then works through the templates API with `Authorization: Bearer <token>`.
import type { Context, Hono } from 'hono';
import { raw } from 'hono/html';
import type { AppEnv } from '../../app-env';
import type { Account } from '../../db/schema/accounts';
import { findEmbedPrincipal } from '../../db/queries/accounts';
import { findTemplate } from '../../db/queries/templates';
import { ApiError, unauthorized } from '../../lib/errors';
import { failedAuthentications } from '../../middleware/auth/failed-authentications';
import { useAccountScope } from '../../middleware/databases';
import { verificationKeys } from '../../services/embed/embed-keys';
import {
  EmbedTokenRefused,
  isEmbedTokenShape,
  unverifiedAddressee,
  verifyEmbedToken,
  type EmbedGrant,
} from '../../services/embed/embed-tokens';
import { frameAncestors } from '../../services/embed/embed-origins';
import { CONSOLE_CSS } from '../layout';
import { BUILDER_CSP, BUILDER_CSS, BUILDER_SCRIPT } from './builder-page';

export const EMBEDDED_BUILDER_PREFIX = '/embed/builder';

type Refusal = { status: 401 | 403 | 404 | 429; message: string; account?: Account; retryAfter?: string };
type Admitted = { account: Account; grant: EmbedGrant };

/**
 * The same count as the API's (docs/limits.md › Failed authentication): a token that is looked up and
 * fails counts against the client address, and an address over the limit is refused before any lookup,
 * so the page is no way around the API's limit for guessing or replaying tokens.
 */
const failures = failedAuthentications();

/** A failure counted against the address: its own 401, or 429 once the address is over the limit. */
async function counted(c: Context<AppEnv>, message: string): Promise<Refusal> {
  return refusalOf(await failures.count(c, unauthorized(message)));
}

function refusalOf(error: ApiError): Refusal {
  // A 401 carries its sentence as `message` (spec › Errors rule 2); the 429's sentence is the error itself.
  const message = typeof error.extra.message === 'string' ? error.extra.message : error.message;
  return { status: error.status as 401 | 429, message, retryAfter: error.headers['Retry-After'] };
}

/** The account and grant of a builder token for template `ref`, or why the page is refused. */
async function admit(c: Context<AppEnv>, token: string | undefined, ref: string): Promise<Admitted | Refusal> {
  if (!token) return { status: 401, message: 'This page needs a builder embed token (?token=…); mint one with POST /api/embed/token.' };
  // Not in a token's shape: refused before any lookup, and not counted, as in the API.
  if (!isEmbedTokenShape(token)) return { status: 401, message: 'The embed token is not valid.' };
  try {
    failures.refuseIfOverLimit(c);
  } catch (error) {
    if (error instanceof ApiError) return refusalOf(error);
    throw error;
  }
  const addressee = unverifiedAddressee(token);
  const found = addressee && (await findEmbedPrincipal(c.var.control, addressee.accountId, addressee.userId));
  if (!found) return counted(c, 'The embed token is not valid.');
  let grant: EmbedGrant;
  try {
    grant = await verifyEmbedToken(token, found.account.id, await verificationKeys(c.env.ENCRYPTION_KEY, found.account));
  } catch (error) {
    if (error instanceof EmbedTokenRefused) return counted(c, error.message);
    throw error;
  }
  if (grant.resourceType !== 'template')
    return { status: 401, message: 'This is a signing form embed token; the builder needs a builder token (resource_type template).' };
  if (found.user.archivedAt) return { status: 401, message: 'The user who minted this embed token has been removed from the account.' };
  const account = found.account;
  if (account.suspendedAt) return { status: 403, message: 'This account is suspended.', account };
  useAccountScope(c, account);
  const template = await findTemplate(c.var.scope.db, account.id, ref);
  if (!template || template.publicId !== grant.resourceId) return { status: 404, message: 'Template not found.', account };
  return { account, grant };
}

/** Framed only by the account's allowed origins ('none' before the token is known good, or when it lists none). */
function headers(c: Context<AppEnv>, account: Account | undefined) {
  const origins = account?.embedOrigins ?? [];
  c.header('Content-Security-Policy', BUILDER_CSP.replace("frame-ancestors 'none'", `frame-ancestors ${frameAncestors(origins)}`));
  if (origins.length === 0) c.header('X-Frame-Options', 'DENY');
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
}

function Page(props: { title: string; children: unknown }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style>{raw(CONSOLE_CSS + BUILDER_CSS + 'body{background:#f3f4f6}main{max-width:none;padding:8px}')}</style>
      </head>
      <body>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

export async function embeddedBuilderPage(c: Context<AppEnv>) {
  const ref = c.req.param('id') ?? '';
  const admitted = await admit(c, c.req.query('token'), ref);
  if (!('grant' in admitted)) {
    headers(c, admitted.account);
    if (admitted.retryAfter) c.header('Retry-After', admitted.retryAfter);
    const body = (
      <Page title="Template builder unavailable">
        <h1>Template builder unavailable</h1>
        <p class="error" role="alert" data-refusal={String(admitted.status)}>
          {admitted.message}
        </p>
      </Page>
    );
    return c.html('<!DOCTYPE html>' + String(body), admitted.status);
  }
  const { account, grant } = admitted;
  const editable = grant.permissions.includes('edit');
  headers(c, account);
  const body = (
    <Page title="Template builder">
      <h1 class="visually-hidden" style="position:absolute;left:-9999px">
        Template builder
      </h1>
      <script type="application/json" id="embed-origins">
        {raw(JSON.stringify(account.embedOrigins).replace(/</g, '\\u003c'))}
      </script>
      <div
        id="template-builder"
        class="builder"
        data-template-id={grant.resourceId}
        data-api-base="/api"
        data-embedded="true"
        data-read-only={editable ? undefined : 'true'}
      >
        <p class="muted" id="builder-loading">
          Loading the template…
        </p>
      </div>
      <script type="module" src={BUILDER_SCRIPT}></script>
    </Page>
  );
  return c.html('<!DOCTYPE html>' + String(body));
}

export function mountEmbeddedBuilder(app: Hono<AppEnv>) {
  app.get(`${EMBEDDED_BUILDER_PREFIX}/:id`, embeddedBuilderPage);
}
