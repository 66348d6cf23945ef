// The webhook endpoint's form fields, shared by the create form (list page) and the edit form (its own
// page): URL, subscribed events, enabled and the signing secret, sent as the API's JSON body.
import type { Webhook } from '../../db/schema/index';
import { EVENT_NAMES } from '../../lib/events';

export function WebhookFields(props: { prefix: string; hook?: Webhook }) {
  const { prefix, hook } = props;
  const subscribed = new Set(hook?.events ?? []);
  return (
    <>
      <label for={`${prefix}-url`}>URL</label>
      <input
        id={`${prefix}-url`}
        name="url"
        type="url"
        required
        maxlength={2048}
        value={hook?.url ?? ''}
        placeholder="https://example.com/webhooks/signing"
      />
      <fieldset>
        <legend>Events</legend>
        <p class="muted">Leave every box empty to receive every event.</p>
        {EVENT_NAMES.map((event) => (
          <div>
            <input
              type="checkbox"
              id={`${prefix}-event-${event}`}
              name="events"
              value={event}
              data-type="list"
              checked={subscribed.has(event)}
            />{' '}
            <label for={`${prefix}-event-${event}`} style="display:inline;font-weight:400">
              <code>{event}</code>
            </label>
          </div>
        ))}
      </fieldset>
      <p>
        <input type="checkbox" id={`${prefix}-enabled`} name="enabled" checked={hook ? hook.enabled : true} />{' '}
        <label for={`${prefix}-enabled`} style="display:inline">
          Enabled
        </label>
      </p>
      <label for={`${prefix}-secret`}>{hook ? 'New signing secret' : 'Signing secret'}</label>
      <input
        id={`${prefix}-secret`}
        name="secret"
        maxlength={256}
        autocomplete="off"
        data-omit-empty
        aria-describedby={`${prefix}-secret-hint`}
      />
      <p id={`${prefix}-secret-hint`} class="muted">
        {hook ? 'Empty keeps the current secret. ' : 'Empty generates one (whsec_…). '}16 to 128 visible ASCII characters.
      </p>
    </>
  );
}
