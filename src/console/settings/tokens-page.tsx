// /settings/tokens: API tokens (admins: the account's, others: their own, as GET /api/access_tokens).
// Editors and admins create them (POST /api/access_tokens; the value is shown once, in the page, by the
// console script) and revoke them; viewers read, since the API refuses them any change.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listAccessTokens } from '../../db/queries/access-tokens';
import { usersByIds } from '../../db/queries/users';
import type { AccessToken } from '../../db/schema/index';
import { paginateByCursor } from '../../lib/pagination';
import { SCOPES } from '../../lib/scopes';
import { Pager, pageQuery, rightsOf, renderPage, Status, TableFrame, Time } from './page-parts';

function stateOf(token: AccessToken, now: number): string {
  if (token.revokedAt) return 'Revoked';
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) return 'Expired';
  return 'Active';
}

function CreateTokenForm() {
  return (
    <section class="card" aria-labelledby="create-token-heading">
      <h2 id="create-token-heading">Create a token</h2>
      <form data-api="/api/access_tokens" data-method="POST" data-reveal="token" data-reveal-into="new-token" data-success="Token created.">
        <label for="token-name">Name</label>
        <input id="token-name" name="name" required maxlength={255} autocomplete="off" />
        <fieldset>
          <legend>Scopes</legend>
          <p class="muted">Leave every box empty for full access.</p>
          {SCOPES.map((scope) => (
            <div>
              <input type="checkbox" id={`scope-${scope}`} name="scopes" value={scope} data-type="list" />{' '}
              <label for={`scope-${scope}`} style="display:inline;font-weight:400">
                <code>{scope}</code>
              </label>
            </div>
          ))}
        </fieldset>
        <label for="token-ips">Allowed IPs</label>
        <textarea id="token-ips" name="allowed_ips" data-type="list" rows={2} aria-describedby="token-ips-hint"></textarea>
        <p id="token-ips-hint" class="muted">
          Addresses or CIDR ranges separated by spaces or commas; empty allows any address.
        </p>
        <label for="token-expiry">Expires</label>
        <input
          id="token-expiry"
          name="expires_at"
          type="datetime-local"
          data-type="datetime"
          data-omit-empty
          aria-describedby="token-expiry-hint"
        />
        <p id="token-expiry-hint" class="muted">
          In your browser's time zone; empty means the token never expires.
        </p>
        <div class="actions">
          <button type="submit">Create token</button>
        </div>
        <Status />
      </form>
      <div id="new-token" hidden tabindex={-1}>
        <h3>Your new token</h3>
        <p>
          <code class="secret" data-revealed></code>
        </p>
        <p class="notice">Copy it now: it is shown only once. Reload the page to see it in the list.</p>
      </div>
    </section>
  );
}

function RevokeForm(props: { token: AccessToken }) {
  return (
    <form
      data-api={`/api/access_tokens/${props.token.id}/revoke`}
      data-method="POST"
      data-reload
      data-confirm={`Revoke the token ${props.token.name}? Programs using it stop working.`}
    >
      <button type="submit" class="danger" aria-label={`Revoke ${props.token.name}`}>
        Revoke
      </button>
      <Status />
    </form>
  );
}

export async function tokensPage(c: Context<AppEnv>) {
  const { account, user } = c.var.signedIn;
  const { isAdmin, canEdit } = rightsOf(c);
  const page = await paginateByCursor(pageQuery(c, 50), (window) =>
    listAccessTokens(c.var.control, account.id, isAdmin ? null : user.id, window),
  );
  const owners = isAdmin
    ? new Map((await usersByIds(c.var.control, account.id, [...new Set(page.data.map((t) => t.userId))])).map((u) => [u.id, u]))
    : null;
  const now = Date.now();
  return renderPage(c, {
    title: 'API tokens',
    section: 'tokens',
    children: (
      <>
        <section class="card" aria-labelledby="tokens-heading">
          <h2 id="tokens-heading">{isAdmin ? 'Tokens of this account' : 'Your tokens'}</h2>
          {page.data.length === 0 ? (
            <p>No tokens yet.</p>
          ) : (
            <TableFrame label="API tokens">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    {owners ? <th scope="col">Owner</th> : null}
                    <th scope="col">Prefix</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Allowed IPs</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Status</th>
                    {canEdit ? <th scope="col">Actions</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((token) => (
                    <tr>
                      <th scope="row">{token.name}</th>
                      {owners ? <td>{owners.get(token.userId)?.email ?? `user ${token.userId}`}</td> : null}
                      <td>
                        <code>{token.tokenPrefix}…</code>
                      </td>
                      <td>{token.scopes.length ? token.scopes.join(', ') : 'Full access'}</td>
                      <td>{token.allowedIps.length ? token.allowedIps.join(', ') : 'Any'}</td>
                      <td>
                        <Time at={token.expiresAt} empty="Never" />
                      </td>
                      <td>
                        <Time at={token.lastUsedAt} empty="Never" />
                      </td>
                      <td>{stateOf(token, now)}</td>
                      {canEdit ? <td>{stateOf(token, now) === 'Active' ? <RevokeForm token={token} /> : null}</td> : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          )}
          <Pager path="/settings/tokens" pagination={page.pagination} />
          {canEdit ? null : <p class="muted">Viewers can read their tokens; an admin can give you the editor role to create them.</p>}
        </section>
        {canEdit ? <CreateTokenForm /> : null}
      </>
    ),
  });
}
