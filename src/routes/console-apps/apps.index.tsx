// /settings/apps (console): the signed-in user's authorized OAuth apps (revoke) and, for admins, the
// account's OAuth clients (register, delete). Plain form posts guarded by the session's CSRF token.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { checkConsoleForm, consoleSession } from '../../middleware/console-session';
import { CONSOLE_CSP } from '../../lib/console-csp';
import { AppsPage, type AppsPageProps } from '../../console/pages/apps';
import { deleteAccountOAuthClient, listAccountOAuthClients, listUserOAuthGrants, revokeUserOAuthGrant } from '../../db/queries/oauth';
import { ApiError, notFound } from '../../lib/errors';
import { checkClientMetadata, registerClient } from '../../services/identity/oauth/clients';
import { OAuthError } from '../../services/identity/oauth/oauth-error';

type C = Context<AppEnv>;

async function render(c: C, extra: Pick<AppsPageProps, 'created' | 'error'> = {}, status: 200 | 422 = 200): Promise<Response> {
  const { session, user, account } = c.var.signedIn;
  const isAdmin = user.role === 'admin';
  const [apps, clients] = await Promise.all([
    listUserOAuthGrants(c.var.control, user.id),
    isAdmin ? listAccountOAuthClients(c.var.control, account.id) : null,
  ]);
  c.header('Content-Security-Policy', CONSOLE_CSP);
  c.header('Cache-Control', 'no-store');
  return c.html(
    String(<AppsPage viewer={{ user, account, csrfToken: session.csrfToken }} apps={apps} clients={clients} {...extra} />),
    status,
  );
}

async function formOf(c: C): Promise<Record<string, string>> {
  const form = await c.req.parseBody();
  checkConsoleForm(c, c.var.signedIn, form);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

function requireAdmin(c: C): void {
  if (c.var.signedIn.user.role !== 'admin') throw new ApiError(403, 'Only account admins can manage OAuth clients.');
}

function idParam(c: C): number {
  const id = Number(c.req.param('id'));
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(404, 'No such item.');
  return id;
}

export function createAppsPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', consoleSession());
  app.get('/', (c) => render(c));
  app.post('/grants/:id/revoke', async (c) => {
    await formOf(c);
    const revoked = await revokeUserOAuthGrant(c.var.control, c.var.signedIn.user.id, idParam(c), new Date().toISOString());
    if (!revoked) throw notFound('Authorized app');
    return c.redirect('/settings/apps', 303);
  });
  app.post('/clients', async (c) => {
    const form = await formOf(c);
    requireAdmin(c);
    const { user, account } = c.var.signedIn;
    try {
      const metadata = checkClientMetadata({
        client_name: form.name,
        redirect_uris: (form.redirect_uris ?? '').split(/\s+/).filter(Boolean),
        token_endpoint_auth_method: form.token_endpoint_auth_method || 'client_secret_basic',
      });
      const { client, clientSecret } = await registerClient(c.var.control, metadata, { accountId: account.id, userId: user.id });
      return render(c, { created: { clientId: client.clientId, clientSecret, name: client.name } });
    } catch (err) {
      if (err instanceof OAuthError) return render(c, { error: err.description }, 422);
      throw err;
    }
  });
  app.post('/clients/:id/delete', async (c) => {
    await formOf(c);
    requireAdmin(c);
    const deleted = await deleteAccountOAuthClient(c.var.control, c.var.signedIn.account.id, idParam(c), new Date().toISOString());
    if (!deleted) throw notFound('OAuth client');
    return c.redirect('/settings/apps', 303);
  });
  return app;
}
