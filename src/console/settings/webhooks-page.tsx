// /settings/webhooks: the account's webhook endpoints (GET /api/webhooks) and, for editors and admins,
// the create form (POST /api/webhooks). Each endpoint's settings and delivery log: webhook-page.tsx.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listWebhooks } from '../../db/queries/webhooks';
import { paginateByCursor } from '../../lib/pagination';
import { planOf } from '../../lib/plans';
import { Pager, pageQuery, rightsOf, renderPage, Status, DataTable, Time } from './page-parts';
import { WebhookFields } from './webhook-forms';

/** Webhooks are a Pro feature (spec › Limits); on other plans the API refuses every webhook call. */
export function hasWebhooksFeature(c: Context<AppEnv>): boolean {
  return planOf(c.var.signedIn.account.plan).features.has('webhooks');
}

export function webhooksUnavailablePage(c: Context<AppEnv>) {
  return renderPage(c, {
    title: 'Webhooks',
    section: 'webhooks',
    children: (
      <div class="card">
        <p>Webhooks require the Pro plan. An account admin can upgrade the account.</p>
      </div>
    ),
  });
}

export async function webhooksPage(c: Context<AppEnv>) {
  if (!hasWebhooksFeature(c)) return webhooksUnavailablePage(c);
  const { account } = c.var.signedIn;
  const { canEdit } = rightsOf(c);
  const page = await paginateByCursor(pageQuery(c, 50), (window) => listWebhooks(c.var.scope.db, account.id, window));
  return renderPage(c, {
    title: 'Webhooks',
    section: 'webhooks',
    children: (
      <>
        <section class="card" aria-labelledby="webhooks-heading">
          <h2 id="webhooks-heading">Endpoints</h2>
          {page.data.length === 0 ? (
            <p>No webhook endpoints yet.</p>
          ) : (
            <DataTable label="Webhook endpoints" columns={['URL', 'Events', 'Status', 'Created']}>
              {page.data.map((hook) => (
                <tr>
                  <th scope="row">
                    <a href={`/settings/webhooks/${hook.id}`} style="word-break:break-all">
                      {hook.url}
                    </a>
                  </th>
                  <td>{hook.events.length ? hook.events.join(', ') : 'Every event'}</td>
                  <td>{hook.enabled ? 'Enabled' : 'Disabled'}</td>
                  <td>
                    <Time at={hook.createdAt} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <Pager path="/settings/webhooks" pagination={page.pagination} />
          {canEdit ? null : <p class="muted">Viewers can read webhooks; editors and admins change them.</p>}
        </section>
        {canEdit ? (
          <section class="card" aria-labelledby="create-webhook-heading">
            <h2 id="create-webhook-heading">Add an endpoint</h2>
            <form data-api="/api/webhooks" data-method="POST" data-reload>
              <WebhookFields prefix="new-webhook" />
              <div class="actions">
                <button type="submit">Add endpoint</button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}
