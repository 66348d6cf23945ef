// The console's one script: a `<form data-api="/api/…" data-method="PUT">` is sent to the JSON API as
// JSON, with the session's CSRF token (meta[name=csrf-token]); the answer or the error's sentence is
// shown in the form's `[role=status]` element, and `data-reload` reloads the page after success.
// Field names become JSON keys; `data-type="number|boolean|list|json|datetime"` on an input converts its
// value (datetime: a `datetime-local` value in the browser's time zone, sent as an ISO 8601 instant).
// `data-indexed` on a form turns `list[0][key]` names into arrays of objects (the send form's roles).
// `data-reveal="token" data-reveal-into="id"` writes the answer's `token` into `#id [data-revealed]` and
// shows `#id`: a secret the API returns once. `data-redirect="/path"` goes there after success.

import { createApiClient, sessionAuth, type ApiResult } from '../../browser/api';
import { startBrandingPreviews } from './branding-preview';
import { nestDotted, nestIndexed } from './nest-fields';

type Converted = string | number | boolean | string[] | unknown | null;

function valueOf(input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): Converted {
  const type = input.dataset.type;
  if (input instanceof HTMLInputElement && input.type === 'checkbox') {
    return type === 'list' ? (input.checked ? input.value : null) : input.checked;
  }
  const raw = input.value.trim();
  if (type === 'number') return raw === '' ? null : Number(raw);
  if (type === 'boolean') return raw === 'true';
  if (type === 'list') return raw === '' ? [] : raw.split(/[\s,]+/).filter(Boolean);
  if (type === 'json') return raw === '' ? null : JSON.parse(raw);
  if (type === 'optional') return raw === '' ? null : raw;
  if (type === 'datetime') return raw === '' ? null : new Date(raw).toISOString();
  return raw;
}

export function formBody(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement)) continue;
    if (!element.name || element.disabled || element.dataset.skip !== undefined) continue;
    const value = valueOf(element);
    if (element instanceof HTMLInputElement && element.type === 'checkbox' && element.dataset.type === 'list') {
      const list = (body[element.name] as string[] | undefined) ?? [];
      if (value !== null) list.push(value as string);
      body[element.name] = list;
    } else if (element instanceof HTMLInputElement && element.type === 'radio') {
      if (element.checked) body[element.name] = value;
    } else if (!(element.dataset.omitEmpty !== undefined && (value === null || value === ''))) {
      body[element.name] = value;
    }
  }
  return form.dataset.indexed !== undefined ? nestIndexed(nestDotted(body)) : nestDotted(body);
}

const api = createApiClient('', sessionAuth());

export function callApi(method: string, path: string, body?: unknown): Promise<ApiResult> {
  return api.call(method, path, body);
}

/** The console's reading of an error: the API's `message` or `error`, but never the bare word "unauthorized". */
function errorSentence({ status, json }: ApiResult): string {
  const message = json?.message ?? json?.error;
  if (typeof message === 'string' && message !== 'unauthorized') return message;
  if (Array.isArray(json?.error)) return json.error.join(' ');
  if (status === 401) return 'Your session has ended; sign in again.';
  return `The request failed (${status}).`;
}

function statusElement(form: HTMLFormElement): HTMLElement {
  let status = form.querySelector<HTMLElement>('[role="status"]');
  if (!status) {
    status = document.createElement('p');
    status.setAttribute('role', 'status');
    form.append(status);
  }
  return status;
}

document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.api) return;
  event.preventDefault();
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
  const status = statusElement(form);
  status.className = 'muted';
  status.textContent = 'Saving…';
  let body: Record<string, unknown>;
  try {
    body = formBody(form);
  } catch {
    status.className = 'error';
    status.textContent = 'A field holds a value that cannot be read (invalid JSON or date).';
    return;
  }
  const result = await callApi(form.dataset.method ?? 'POST', form.dataset.api, body);
  if (!result.ok) {
    status.className = 'error';
    status.textContent = errorSentence(result);
    return;
  }
  form.dispatchEvent(new CustomEvent('api:success', { detail: result.json, bubbles: true }));
  if (form.dataset.redirect) {
    window.location.assign(form.dataset.redirect);
    return;
  }
  if (form.dataset.reload !== undefined) {
    window.location.reload();
    return;
  }
  status.className = 'notice';
  status.textContent = form.dataset.success ?? 'Saved.';
});

// A value the API shows only once (a new API token): into the page, not the status line, and the form is
// cleared so that a second submit is a deliberate second token.
document.addEventListener('api:success', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.reveal || !form.dataset.revealInto) return;
  const value = (event as CustomEvent).detail?.[form.dataset.reveal];
  const box = document.getElementById(form.dataset.revealInto);
  const slot = box?.querySelector<HTMLElement>('[data-revealed]');
  if (!box || !slot || typeof value !== 'string') return;
  slot.textContent = value;
  box.hidden = false;
  form.reset();
  box.focus();
});

startBrandingPreviews();

// Pages with their own behaviour import these helpers from the global.
(window as unknown as { Console: unknown }).Console = { callApi, formBody };
