// The OAuth 2.1 authorization server (docs/oauth.md): discovery (RFC 8414), dynamic client registration
// (RFC 7591), the authorization endpoint with its consent page, the token endpoint and revocation
// (RFC 7009). Its state lives in the control database (src/db/schema/oauth.ts).
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../../app-env';
import { checkConsoleForm, consoleSession } from '../../middleware/console-session';
import type { ConsoleViewer } from '../../console/layout';
import { CONSOLE_CSP } from '../../lib/console-csp';
import { AuthorizationErrorPage, ConsentPage } from '../../console/pages/oauth-consent';
import { failedAuthentications } from '../../middleware/auth/failed-authentications';
import { clientAddressBlock } from '../../lib/ip';
import { limitsDisabled } from '../../lib/limits';
import { baseUrl, clientIp } from '../../lib/request';
import { SCOPES } from '../../lib/scopes';
import type { SignedIn } from '../../services/identity/sessions';
import {
  approveAuthorization,
  checkAuthorizationRequest,
  clientRedirect,
  type AuthorizationRequest,
} from '../../services/identity/oauth/authorization-request';
import {
  authenticateClient,
  checkClientMetadata,
  clientInformation,
  registerClient,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../../services/identity/oauth/clients';
import { OAuthError } from '../../services/identity/oauth/oauth-error';
import { boundByRole } from '../../services/identity/oauth/oauth-scopes';
import { exchangeCode, refreshTokens, revokeToken } from '../../services/identity/oauth/token-grants';
import { noStore, oauthErrorResponse, readOAuthForm, readRegistrationBody } from './oauth-http';
import { secondsUntil } from '../../lib/time';

type C = Context<AppEnv>;

/** Dynamic registrations per client address block and window (decisions.md › issue 16 : OAuth 2.1). */
export const REGISTRATION_LIMIT = 10;
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;

function issuer(c: C): string {
  return baseUrl(c.req.raw, c.env.APP_URL);
}

export function discoveryDocument(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/api/docs`,
  };
}

function page(c: C, element: unknown, status: 200 | 400 | 403 = 200): Response {
  if (!c.res.headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', CONSOLE_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('X-Frame-Options', 'DENY');
  return c.html(String(element), status);
}

function viewerOf(signedIn: SignedIn): ConsoleViewer {
  return { user: signedIn.user, account: signedIn.account, csrfToken: signedIn.session.csrfToken };
}

/** An account admin's client serves that account only; a dynamically registered one serves anyone. */
function clientServes(request: AuthorizationRequest, signedIn: SignedIn): boolean {
  return request.client.accountId === null || request.client.accountId === signedIn.account.id;
}

const NOT_FOR_THIS_ACCOUNT = 'This application was registered by another account and cannot be authorized from yours.';

async function limitRegistrations(c: C): Promise<void> {
  if (limitsDisabled(c.env)) return;
  const namespace = c.env.RATE_LIMITER;
  const key = `oauthreg:${clientAddressBlock(clientIp(c.req.raw))}`;
  const decision = await namespace.get(namespace.idFromName(key)).take({ limit: REGISTRATION_LIMIT, windowMs: REGISTRATION_WINDOW_MS });
  if (!decision.allowed) {
    const wait = secondsUntil(decision.resetAt);
    throw new OAuthError(
      'slow_down',
      `Too many client registrations from this address (${REGISTRATION_LIMIT} per hour); retry in ${wait} seconds.`,
      429,
      {
        'Retry-After': String(wait),
      },
    );
  }
}

async function register(c: C): Promise<Response> {
  await limitRegistrations(c);
  const body = await readRegistrationBody(c);
  const { client, clientSecret } = await registerClient(c.var.control, checkClientMetadata(body), null);
  noStore(c);
  return c.json(clientInformation(client, clientSecret), 201);
}

async function authorizePage(c: C): Promise<Response> {
  const checked = await checkAuthorizationRequest(c.var.control, c.req.query(), c.req.queries('resource') ?? [], issuer(c));
  if ('page' in checked) return page(c, <AuthorizationErrorPage message={checked.page} />, 400);
  if ('redirect' in checked) {
    const { redirectUri, state, error, description } = checked.redirect;
    return c.redirect(clientRedirect(redirectUri, { error, error_description: description, state, iss: issuer(c) }), 302);
  }
  // Only a request that may be answered at its redirect URI asks who is signed in (and may send them
  // to /login first, which comes back here).
  let response: Response | undefined;
  const redirect = await consoleSession()(c, async () => {
    const signedIn = c.var.signedIn;
    if (!clientServes(checked, signedIn)) {
      response = page(c, <AuthorizationErrorPage message={NOT_FOR_THIS_ACCOUNT} />, 403);
      return;
    }
    const { granted, refused } = boundByRole(signedIn.user.role, checked.scopes);
    const request: Record<string, string> = {
      response_type: 'code',
      client_id: checked.client.clientId,
      redirect_uri: checked.redirectUri,
      scope: checked.scopes.join(' '),
      code_challenge: checked.codeChallenge,
      code_challenge_method: 'S256',
      ...(checked.state !== null ? { state: checked.state } : {}),
    };
    // Browsers apply the page's form-action to the redirect its form post answers with (Chrome does):
    // the consent form may lead to this client's redirect URI, and nowhere else.
    c.header(
      'Content-Security-Policy',
      CONSOLE_CSP.replace("form-action 'self'", `form-action 'self' ${new URL(checked.redirectUri).origin}`),
    );
    response = page(
      c,
      <ConsentPage
        viewer={viewerOf(signedIn)}
        appName={checked.client.name}
        redirectHost={new URL(checked.redirectUri).host}
        granted={granted}
        refused={refused}
        request={request}
        resources={c.req.queries('resource') ?? []}
        audiences={checked.audiences}
      />,
    );
  });
  return redirect ?? response!;
}

async function decide(c: C): Promise<Response> {
  const signedIn = c.var.signedIn;
  const form = await c.req.parseBody({ all: true });
  checkConsoleForm(c, signedIn, form);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) if (typeof value === 'string') params[name] = value;
  // `resource` may be repeated (RFC 8707 §2); every other parameter is single.
  const resources = [form.resource ?? []].flat().filter((value): value is string => typeof value === 'string');
  const checked = await checkAuthorizationRequest(c.var.control, params, resources, issuer(c));
  if ('page' in checked) return page(c, <AuthorizationErrorPage message={checked.page} />, 400);
  const back = (values: Record<string, string | null>, redirectUri: string, state: string | null) =>
    c.redirect(clientRedirect(redirectUri, { ...values, state, iss: issuer(c) }), 303);
  if ('redirect' in checked) {
    const { redirectUri, state, error, description } = checked.redirect;
    return back({ error, error_description: description }, redirectUri, state);
  }
  if (!clientServes(checked, signedIn)) return page(c, <AuthorizationErrorPage message={NOT_FOR_THIS_ACCOUNT} />, 403);
  if (params.decision !== 'allow') {
    return back({ error: 'access_denied', error_description: 'The user denied the request.' }, checked.redirectUri, checked.state);
  }
  // The role is read now, not when the page was shown: a role lowered meanwhile grants less.
  const { granted } = boundByRole(signedIn.user.role, checked.scopes);
  if (granted.length === 0) {
    return back(
      { error: 'invalid_scope', error_description: 'The user’s role allows none of the requested scopes.' },
      checked.redirectUri,
      checked.state,
    );
  }
  const code = await approveAuthorization(c.var.control, checked, { id: signedIn.user.id, accountId: signedIn.account.id }, granted);
  return back({ code }, checked.redirectUri, checked.state);
}

/** Failed client authentications and unknown codes or refresh tokens count against the caller's address. */
const failures = failedAuthentications();

async function counted<T>(c: C, work: () => Promise<T>): Promise<T> {
  failures.refuseIfOverLimit(c);
  try {
    return await work();
  } catch (err) {
    if (err instanceof OAuthError && (err.code === 'invalid_client' || err.code === 'invalid_grant')) throw await failures.count(c, err);
    throw err;
  }
}

async function token(c: C): Promise<Response> {
  const form = await readOAuthForm(c);
  noStore(c);
  return counted(c, async () => {
    const client = await authenticateClient(c.var.control, c.req.header('Authorization'), form);
    if (form.grant_type === 'authorization_code') return c.json(await exchangeCode(c.var.control, client, form, issuer(c)));
    if (form.grant_type === 'refresh_token') return c.json(await refreshTokens(c.var.control, client, form, issuer(c)));
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  });
}

async function revoke(c: C): Promise<Response> {
  const form = await readOAuthForm(c);
  noStore(c);
  return counted(c, async () => {
    const client = await authenticateClient(c.var.control, c.req.header('Authorization'), form);
    await revokeToken(c.var.control, client, form.token);
    return c.body(null, 200);
  });
}

export function createOAuthRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError((err, c) => {
    if (err instanceof OAuthError) return oauthErrorResponse(c, err);
    throw err;
  });
  // Browser-based clients call these from their own origin; none of them reads a cookie, so any origin may.
  for (const path of ['/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/token', '/oauth/revoke']) {
    app.use(path, cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['Content-Type', 'Authorization'], maxAge: 600 }));
  }
  app.get('/.well-known/oauth-authorization-server', (c) => c.json(discoveryDocument(issuer(c))));
  app.post('/oauth/register', register);
  app.get('/oauth/authorize', authorizePage);
  app.post('/oauth/authorize', consoleSession(), decide);
  app.post('/oauth/token', token);
  app.post('/oauth/revoke', revoke);
  return app;
}
