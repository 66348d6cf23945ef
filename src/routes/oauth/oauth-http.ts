// HTTP details of the OAuth endpoints: form bodies (RFC 6749 §3.2, each parameter at most once) and the
// §5.2 error response with `Cache-Control: no-store`.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { readBodyCapped } from '../../lib/request';
import { OAuthError } from '../../services/identity/oauth/oauth-error';

const MAX_FORM_BYTES = 16 * 1024;
/** Client metadata (RFC 7591): a name, a few redirect URIs and URLs; 64 KB is far more than any needs. */
export const MAX_REGISTRATION_BYTES = 64 * 1024;

/** The form-encoded body as single-valued strings; anything else is an OAuth `invalid_request`. */
export async function readOAuthForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'Send the parameters form-encoded (Content-Type: application/x-www-form-urlencoded).');
  }
  const bytes = await readBodyCapped(
    c.req.raw,
    MAX_FORM_BYTES,
    () => new OAuthError('invalid_request', `The request body is limited to ${MAX_FORM_BYTES} bytes.`, 413),
  );
  const text = new TextDecoder().decode(bytes);
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in form) throw new OAuthError('invalid_request', `The parameter ${name} is sent more than once.`);
    form[name] = value;
  }
  return form;
}

export function noStore(c: Context<AppEnv>): void {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
}

export function oauthErrorResponse(c: Context<AppEnv>, err: OAuthError): Response {
  noStore(c);
  for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
  if (err.code === 'invalid_client' && err.status === 401) c.header('WWW-Authenticate', 'Basic realm="oauth"');
  return c.json({ error: err.code, error_description: err.description }, err.status);
}

/**
 * The JSON body of a dynamic client registration, read through a byte cap that also holds for a chunked
 * body without Content-Length (413 past it).
 */
export async function readRegistrationBody(c: Context<AppEnv>): Promise<unknown> {
  const bytes = await readBodyCapped(
    c.req.raw,
    MAX_REGISTRATION_BYTES,
    () => new OAuthError('invalid_client_metadata', `The client metadata is limited to ${MAX_REGISTRATION_BYTES / 1024} KB.`, 413),
  );
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata (RFC 7591).');
  }
}
