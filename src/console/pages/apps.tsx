// /settings/apps: the OAuth applications acting for the signed-in user (revocable), and for admins the
// account's registered OAuth clients (register, delete). A new client's secret is shown once.
import type { AuthorizedApp } from '../../db/queries/oauth';
import type { OAuthClient } from '../../db/schema/index';
import { ConsoleLayout, type ConsoleViewer } from '../layout';

export type AppsPageProps = {
  viewer: ConsoleViewer;
  apps: AuthorizedApp[];
  /** Null for non-admins: they do not see the client list. */
  clients: OAuthClient[] | null;
  /** Just registered: its id and (confidential clients) secret, shown this once. */
  created?: { clientId: string; clientSecret: string | null; name: string };
  error?: string;
};

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

function when(at: string | null): string {
  return at ? at.replace('T', ' ').slice(0, 16) + ' UTC' : 'never';
}

export function AppsPage(props: AppsPageProps) {
  const { viewer } = props;
  return (
    <ConsoleLayout title="Apps" viewer={viewer} section="apps">
      <section class="card" aria-labelledby="authorized-heading">
        <h2 id="authorized-heading">Apps you have authorized</h2>
        {props.apps.length === 0 ? (
          <p class="muted">No application acts on your behalf.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Access</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="skip">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.apps.map(({ grant, client }) => (
                <tr>
                  <td>
                    {client.name}
                    <div class="muted">{client.redirectUris.map(hostOf).join(', ')}</div>
                  </td>
                  <td>{grant.scopes.join(', ')}</td>
                  <td>{when(grant.issuedAt)}</td>
                  <td>{when(grant.lastUsedAt)}</td>
                  <td>
                    <form method="post" action={`/settings/apps/grants/${grant.id}/revoke`}>
                      <input type="hidden" name="csrf_token" value={viewer.csrfToken} />
                      <button type="submit" class="danger" aria-label={`Revoke ${client.name}`}>
                        Revoke
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {props.clients ? (
        <section class="card" aria-labelledby="clients-heading">
          <h2 id="clients-heading">OAuth clients of this account</h2>
          {props.created ? (
            <div class="notice" role="status">
              <p>
                Registered {props.created.name}. Client ID: <code class="secret">{props.created.clientId}</code>
              </p>
              {props.created.clientSecret ? (
                <p>
                  Client secret (shown only now): <code class="secret">{props.created.clientSecret}</code>
                </p>
              ) : null}
            </div>
          ) : null}
          {props.error ? (
            <p class="error" role="alert">
              {props.error}
            </p>
          ) : null}
          {props.clients.length === 0 ? (
            <p class="muted">No clients registered by this account.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client ID</th>
                  <th scope="col">Redirect URIs</th>
                  <th scope="col">
                    <span class="skip">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.clients.map((client) => (
                  <tr>
                    <td>{client.name}</td>
                    <td>
                      <code>{client.clientId}</code>
                    </td>
                    <td>{client.redirectUris.join(' ')}</td>
                    <td>
                      <form method="post" action={`/settings/apps/clients/${client.id}/delete`}>
                        <input type="hidden" name="csrf_token" value={viewer.csrfToken} />
                        <button type="submit" class="danger" aria-label={`Delete ${client.name}`}>
                          Delete
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Register a client</h3>
          <form method="post" action="/settings/apps/clients">
            <input type="hidden" name="csrf_token" value={viewer.csrfToken} />
            <label for="client-name">Name</label>
            <input id="client-name" name="name" required maxlength={100} />
            <label for="client-redirects">Redirect URIs (one per line)</label>
            <textarea id="client-redirects" name="redirect_uris" rows={3} required></textarea>
            <label for="client-auth">Client type</label>
            <select id="client-auth" name="token_endpoint_auth_method">
              <option value="client_secret_basic">Confidential (secret, HTTP Basic)</option>
              <option value="client_secret_post">Confidential (secret in the form)</option>
              <option value="none">Public (no secret; PKCE only)</option>
            </select>
            <div class="actions">
              <button type="submit">Register</button>
            </div>
          </form>
        </section>
      ) : null}
    </ConsoleLayout>
  );
}
