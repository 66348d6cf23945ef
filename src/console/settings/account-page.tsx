// /settings/account: the account's name, locale, time zone, MFA enforcement and embedding origins (spec › Update
// account; decisions.md › Embedding).
// Admins edit through PUT /api/settings/account; everyone else reads.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { rightsOf, renderPage, Status } from './page-parts';

export function accountPage(c: Context<AppEnv>) {
  const { account } = c.var.signedIn;
  const { isAdmin } = rightsOf(c);
  return renderPage(c, {
    title: 'Account settings',
    section: 'account',
    children: isAdmin ? (
      <section class="card" aria-labelledby="account-form-heading">
        <h2 id="account-form-heading">Details</h2>
        <form data-api="/api/settings/account" data-method="PUT" data-success="Account saved.">
          <label for="account-name">Name</label>
          <input id="account-name" name="name" value={account.name} required maxlength={255} autocomplete="organization" />
          <label for="account-locale">Locale</label>
          <input id="account-locale" name="locale" value={account.locale} aria-describedby="account-locale-hint" />
          <p id="account-locale-hint" class="muted">
            A language tag such as en-US or de.
          </p>
          <label for="account-timezone">Time zone</label>
          <input id="account-timezone" name="timezone" value={account.timezone} aria-describedby="account-timezone-hint" />
          <p id="account-timezone-hint" class="muted">
            An IANA time zone such as Europe/Berlin or UTC.
          </p>
          <p>
            <input type="checkbox" id="account-mfa" name="mfa_enforced" checked={account.mfaEnforced} aria-describedby="account-mfa-hint" />{' '}
            <label for="account-mfa" style="display:inline">
              Require two-factor authentication
            </label>
          </p>
          <p id="account-mfa-hint" class="muted">
            Users without an authenticator app can then only sign in to enrol one.
          </p>
          <label for="account-embed-origins">Sites that may embed the signing form</label>
          <textarea id="account-embed-origins" name="embed_origins" data-type="list" rows={3} aria-describedby="account-embed-origins-hint">
            {account.embedOrigins.join('\n')}
          </textarea>
          <p id="account-embed-origins-hint" class="muted">
            One origin per line, such as https://app.example.com (no path). Only these sites can show your signing pages in a frame; leave
            it empty to allow none.
          </p>
          <div class="actions">
            <button type="submit">Save</button>
          </div>
          <Status />
        </form>
      </section>
    ) : (
      <section class="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Details</h2>
        <dl>
          <dt>Name</dt>
          <dd>{account.name}</dd>
          <dt>Locale</dt>
          <dd>{account.locale}</dd>
          <dt>Time zone</dt>
          <dd>{account.timezone}</dd>
          <dt>Two-factor authentication</dt>
          <dd>{account.mfaEnforced ? 'Required for every user' : 'Optional'}</dd>
          <dt>Sites that may embed the signing form</dt>
          <dd>{account.embedOrigins.length > 0 ? account.embedOrigins.join(', ') : 'None'}</dd>
        </dl>
        <p class="muted">Only account admins can change these settings.</p>
      </section>
    ),
  });
}
