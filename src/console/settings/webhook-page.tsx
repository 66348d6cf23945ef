// /settings/webhooks/{id}: one endpoint's settings (PUT/DELETE /api/webhooks/{id}), its signing secret
// (the API shows it too), a test send and its delivery log with a redeliver button per entry.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listDeliveries } from '../../db/queries/webhook-deliveries';
import { getWebhook } from '../../db/queries/webhooks';
import type { Webhook, WebhookDelivery } from '../../db/schema/index';
import { EVENT_NAMES } from '../../lib/events';
import { paginateByCursor } from '../../lib/pagination';
import { notFoundPage, Pager, pageQuery, rightsOf, renderPage, Status, TableFrame, Time } from './page-parts';
import { WebhookFields } from './webhook-forms';
import { hasWebhooksFeature, webhooksUnavailablePage } from './webhooks-page';

function EndpointSettings(props: { hook: Webhook; canEdit: boolean }) {
  const { hook } = props;
  if (!props.canEdit) {
    return (
      <section class="card" aria-labelledby="endpoint-heading">
        <h2 id="endpoint-heading">Settings</h2>
        <dl>
          <dt>URL</dt>
          <dd style="word-break:break-all">{hook.url}</dd>
          <dt>Events</dt>
          <dd>{hook.events.length ? hook.events.join(', ') : 'Every event'}</dd>
          <dt>Status</dt>
          <dd>{hook.enabled ? 'Enabled' : 'Disabled'}</dd>
        </dl>
      </section>
    );
  }
  return (
    <section class="card" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">Settings</h2>
      <form data-api={`/api/webhooks/${hook.id}`} data-method="PUT" data-reload>
        <WebhookFields prefix="webhook" hook={hook} />
        <div class="actions">
          <button type="submit">Save</button>
        </div>
        <Status />
      </form>
      <form
        data-api={`/api/webhooks/${hook.id}`}
        data-method="DELETE"
        data-confirm="Delete this endpoint? Its pending deliveries are dropped."
        data-redirect="/settings/webhooks"
      >
        <div class="actions">
          <button type="submit" class="danger">
            Delete endpoint
          </button>
        </div>
        <Status />
      </form>
    </section>
  );
}

function TestSend(props: { hook: Webhook }) {
  return (
    <section class="card" aria-labelledby="test-heading">
      <h2 id="test-heading">Send a test</h2>
      <form data-api={`/api/webhooks/${props.hook.id}/test`} data-method="POST" data-reload>
        <label for="test-event">Event</label>
        <select id="test-event" name="event" data-omit-empty>
          <option value="">The first subscribed event</option>
          {EVENT_NAMES.map((event) => (
            <option value={event}>{event}</option>
          ))}
        </select>
        <div class="actions">
          <button type="submit">Send test</button>
        </div>
        <Status />
      </form>
    </section>
  );
}

function DeliveryRow(props: { hook: Webhook; delivery: WebhookDelivery; canEdit: boolean }) {
  const { delivery } = props;
  return (
    <tr>
      <th scope="row">
        <Time at={delivery.attemptedAt ?? delivery.createdAt} />
      </th>
      <td>
        {delivery.event}
        {delivery.test ? ' (test)' : ''}
      </td>
      <td>{delivery.status}</td>
      <td>
        {delivery.attempt} of {delivery.maxAttempts}
      </td>
      <td>{delivery.httpStatus ?? '—'}</td>
      <td>{delivery.errorMessage ?? ''}</td>
      {props.canEdit ? (
        <td>
          {delivery.status !== 'pending' && !delivery.test ? (
            <form data-api={`/api/webhooks/${props.hook.id}/deliveries/${delivery.id}/redeliver`} data-method="POST" data-reload>
              <button type="submit" class="secondary" aria-label={`Redeliver ${delivery.event} of ${delivery.createdAt}`}>
                Redeliver
              </button>
              <Status />
            </form>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

export async function webhookPage(c: Context<AppEnv>) {
  if (!hasWebhooksFeature(c)) return webhooksUnavailablePage(c);
  const id = c.req.param('id') ?? '';
  const { account } = c.var.signedIn;
  const hook = /^[1-9]\d{0,15}$/.test(id) ? await getWebhook(c.var.scope.db, account.id, Number(id)) : undefined;
  if (!hook) return notFoundPage(c, 'webhooks', 'Webhook');
  const { canEdit } = rightsOf(c);
  const path = `/settings/webhooks/${hook.id}`;
  const page = await paginateByCursor(pageQuery(c, 50), (window) => listDeliveries(c.var.scope.db, account.id, hook.id, {}, window));
  return renderPage(c, {
    title: `Webhook ${hook.id}`,
    section: 'webhooks',
    children: (
      <>
        <p>
          <a href="/settings/webhooks">All endpoints</a> · <span style="word-break:break-all">{hook.url}</span>
        </p>
        <EndpointSettings hook={hook} canEdit={canEdit} />
        <section class="card" aria-labelledby="secret-heading">
          <h2 id="secret-heading">Signing secret</h2>
          <details>
            <summary>Show the secret</summary>
            <p>
              <code class="secret">{hook.secret}</code>
            </p>
          </details>
          <p class="muted">Deliveries are signed with it (X-Webhook-Signature); docs/webhooks.md shows how to verify them.</p>
        </section>
        {canEdit ? <TestSend hook={hook} /> : null}
        <section class="card" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">Delivery log</h2>
          {page.data.length === 0 ? (
            <p>No deliveries yet.</p>
          ) : (
            <TableFrame label="Delivery log entries">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempt</th>
                    <th scope="col">Response code</th>
                    <th scope="col">Error</th>
                    {canEdit ? <th scope="col">Actions</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((delivery) => (
                    <DeliveryRow hook={hook} delivery={delivery} canEdit={canEdit} />
                  ))}
                </tbody>
              </table>
            </TableFrame>
          )}
          <Pager path={path} pagination={page.pagination} />
        </section>
      </>
    ),
  });
}
