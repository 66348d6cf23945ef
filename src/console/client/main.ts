// The console's one script: a `<form data-api="/api/…" data-method="PUT">` is sent to the JSON API as
// JSON, with the session's CSRF token (meta[name=csrf-token]); the answer or the error's sentence is
// shown in the form's `[role=status]` element, and `data-reload` reloads the page after success.
/* eslint-disable @typescript-eslint/no-explicit-any -- API answers are read field by field */
// Field names become JSON keys; `data-type="number|boolean|list|json"` on an input converts its value.

type Converted = string | number | boolean | string[] | unknown | null;

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

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
  return body;
}

export async function callApi(method: string, path: string, body?: unknown): Promise<{ ok: boolean; status: number; json: any }> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
    body: body === undefined || method === 'GET' ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { ok: response.ok, status: response.status, json };
}

function errorSentence(status: number, json: any): string {
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
    status.textContent = 'A field holds invalid JSON.';
    return;
  }
  const result = await callApi(form.dataset.method ?? 'POST', form.dataset.api, body);
  if (!result.ok) {
    status.className = 'error';
    status.textContent = errorSentence(result.status, result.json);
    return;
  }
  form.dispatchEvent(new CustomEvent('api:success', { detail: result.json, bubbles: true }));
  if (form.dataset.reload !== undefined) {
    window.location.reload();
    return;
  }
  status.className = 'notice';
  status.textContent = form.dataset.success ?? 'Saved.';
});

// Pages with their own behaviour import these helpers from the global.
(window as unknown as { Console: unknown }).Console = { callApi, formBody };
