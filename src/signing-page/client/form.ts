// The signing form: fields over the drawn pages, a stepper (Previous/Next or the branded bar), checks
// shared with the server, autosave, the confirmation carousel, submit, decline and delegate.
import { checkFieldValue, isBlank } from '../../shared/field-values';
import { hiddenFields, reviewedFields, withFormulas } from '../../shared/form-rules';
import { $, el } from '../../browser/dom';
import { send } from './api';
import type { DocumentView } from '../../shared/template-schema';
import { areaBox } from './documents';
import { widgetFor, type Field, type PaymentStates } from './widgets';
import { fieldProblem, t } from './messages';

export type FormState = {
  slug: string;
  submitter: { name: string | null; email: string | null; role: string };
  fields: Field[];
  values: Record<string, unknown>;
  documents: DocumentView[];
  preferences: Record<string, unknown>;
  payments?: PaymentStates;
};

const SAVE_DELAY_MS = 600;

/**
 * Starts the form over the documents already on screen (shown while the disclosure waits: main.ts);
 * `pages` are their page containers by `<document uuid>:<page number>` (documents.ts › showDocuments).
 */
export function startForm(state: FormState, pages: Map<string, HTMLElement>): void {
  // The form is on screen: that, not fetching the page, is what opens it (form.viewed).
  void send('POST', `/s/${state.slug}/open`, {}).catch(() => undefined);
  let values = withFormulas(state.fields, state.values);
  let hidden = hiddenFields(state.fields, state.preferences, values);
  const dirty = new Set<string>();
  let saving: Promise<void> = Promise.resolve();
  let timer: number | undefined;
  let current = 0;

  const areas = new Map<string, HTMLElement[]>();
  for (const field of state.fields) {
    for (const area of field.areas) {
      const page = pages.get(`${area.attachment_uuid}:${area.page}`);
      const doc = state.documents.find((d) => d.uuid === area.attachment_uuid);
      if (!page || !doc) continue;
      const b = areaBox(area, doc.page_dimensions[area.page - 1] ?? doc.page_dimensions[0]);
      const node = el('div', {
        class: 'area',
        'data-field': field.uuid,
        title: field.name,
        style: `left:${b.left}%;top:${b.top}%;width:${b.width}%;height:${b.height}%`,
      });
      node.addEventListener('click', () => go(steps().findIndex((f) => f.uuid === field.uuid)));
      page.append(node);
      areas.set(field.uuid, [...(areas.get(field.uuid) ?? []), node]);
    }
  }

  const bar = el('div', { class: 'stepper', id: 'stepper' });
  // standard: Previous/Next at the bottom of the screen; branded_bar: a sticky bar under the header.
  const main = document.querySelector('main')!;
  document.body.insertBefore(bar, state.preferences.signing_nav_style === 'branded_bar' ? main : main.nextSibling);

  /** The fields the signer steps through: visible ones, stamps of formulas included for display. */
  const steps = () => state.fields.filter((f) => !hidden.has(f.uuid));

  function paintAreas() {
    for (const field of state.fields) {
      for (const node of areas.get(field.uuid) ?? []) {
        const value = values[field.uuid];
        node.classList.toggle('hidden', hidden.has(field.uuid));
        node.classList.toggle('filled', !isBlank(value) && value !== false);
        node.classList.toggle('current', steps()[current]?.uuid === field.uuid);
        node.replaceChildren();
        if (typeof value === 'string' && value.startsWith('data:image/')) node.append(el('img', { src: value, alt: field.name }));
        else if (value === true) node.append('✓');
        else if (!isBlank(value) && value !== false)
          node.append(typeof value === 'string' && value.startsWith('attachment:') ? '📎' : String(value));
        else node.append(field.name);
      }
    }
  }

  function scheduleSave() {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void flush(), SAVE_DELAY_MS);
  }

  function flush(): Promise<void> {
    window.clearTimeout(timer);
    if (dirty.size === 0) return saving;
    const batch = Object.fromEntries([...dirty].map((uuid) => [uuid, values[uuid] ?? null]));
    dirty.clear();
    saving = saving.then(() =>
      send('PUT', `/s/${state.slug}/values`, { values: batch }).then(
        () => message(''),
        (e) => message(e.message),
      ),
    );
    return saving;
  }

  function setValue(field: Field, value: unknown) {
    values = withFormulas(state.fields, { ...values, [field.uuid]: value });
    hidden = hiddenFields(state.fields, state.preferences, values);
    dirty.add(field.uuid);
    scheduleSave();
    paintAreas();
    const counter = $('#progress', bar);
    if (counter) counter.textContent = progress();
  }

  function message(text: string) {
    const node = $('#form-error', bar);
    if (node) node.textContent = text;
  }

  const progress = () => {
    const list = steps();
    return t('client.form.progress', { current: Math.min(current + 1, list.length), total: list.length });
  };

  function problemOf(field: Field): string | null {
    if (field.readonly || field.formula || field.locked) return null;
    // The server refuses to complete until it is paid, and says so.
    if (field.type === 'payment') return null;
    const checked = checkFieldValue(field, values[field.uuid]);
    return checked.ok ? null : fieldProblem(checked.message);
  }

  function go(index: number) {
    const list = steps();
    if (index < 0 || list.length === 0) return;
    current = Math.min(index, list.length - 1);
    const field = list[current];
    const widget = widgetFor(field, values[field.uuid], state.slug, (v) => setValue(field, v), message, state.payments, flush);
    const prev = el('button', { type: 'button', class: 'secondary', id: 'previous', text: t('client.form.previous') });
    const next = el('button', { type: 'button', id: 'next', text: t('client.form.next') });
    const submit = el('button', { type: 'button', id: 'submit', text: t('client.form.submit') });
    prev.toggleAttribute('disabled', current === 0);
    prev.addEventListener('click', () => go(current - 1));
    next.addEventListener('click', () => {
      const problem = problemOf(field);
      if (problem) return message(problem);
      message('');
      go(current + 1);
    });
    submit.addEventListener('click', () => void review());
    const last = current === list.length - 1;
    bar.replaceChildren(
      el('label', { for: 'field-input', text: `${field.name}${field.required ? ' *' : ''}` }),
      widget.node,
      el('p', { class: 'error', id: 'form-error', role: 'alert' }),
      el('div', { class: 'row' }, prev, el('span', { class: 'muted', id: 'progress', text: progress() }), last ? submit : next),
      el(
        'div',
        { class: 'row' },
        link(t('client.form.decline'), decline),
        link(t('client.form.delegate'), delegate),
        last ? el('span') : submit,
      ),
    );
    paintAreas();
    areas.get(field.uuid)?.[0]?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    widget.focus();
  }

  function link(text: string, action: () => void) {
    const a = el('button', { type: 'button', class: 'secondary', text });
    a.addEventListener('click', action);
    return a;
  }

  async function review() {
    const list = steps();
    const firstProblem = list.map((f) => [f, problemOf(f)] as const).find(([, p]) => p);
    if (firstProblem) {
      go(list.indexOf(firstProblem[0]));
      return message(firstProblem[1]!);
    }
    const reviewed = reviewedFields(list, state.preferences, hidden);
    if (reviewed.length === 0) return submitAll();
    let i = 0;
    const overlay = el('div', { class: 'carousel', id: 'carousel', role: 'dialog', 'aria-modal': 'true' });
    const show = () => {
      const f = reviewed[i];
      const v = values[f.uuid];
      const shown =
        typeof v === 'string' && v.startsWith('data:image/')
          ? el('img', { src: v, alt: f.name })
          : el('p', { text: isBlank(v) ? '—' : String(v) });
      const back = link(t('client.review.back'), () => (i === 0 ? overlay.remove() : ((i -= 1), show())));
      const on = el('button', {
        type: 'button',
        id: i === reviewed.length - 1 ? 'confirm-submit' : 'carousel-next',
        text: i === reviewed.length - 1 ? t('client.review.confirm') : t('client.review.looks_right'),
      });
      on.addEventListener('click', () => (i === reviewed.length - 1 ? (overlay.remove(), void submitAll()) : ((i += 1), show())));
      overlay.replaceChildren(
        el(
          'div',
          { class: 'card' },
          el('h2', { text: t('client.review.title', { index: i + 1, total: reviewed.length, name: f.name }) }),
          shown,
          el('div', { class: 'actions' }, back, on),
        ),
      );
    };
    show();
    document.body.append(overlay);
  }

  async function submitAll() {
    await flush();
    const own = Object.fromEntries(
      state.fields.filter((f) => !f.readonly && !f.formula && f.type !== 'payment').map((f) => [f.uuid, values[f.uuid] ?? null]),
    );
    try {
      const done = await send('POST', `/s/${state.slug}/submit`, { values: own });
      // qes: the signer authorizes at the signature provider, which sends them back here when done.
      if (typeof done.authorization_url === 'string') return window.location.assign(done.authorization_url);
      // The query carries an embedding host's options (completed redirect, language, theme): kept.
      window.location.assign(done.redirect_url + window.location.search);
    } catch (error) {
      message(error instanceof Error ? error.message : String(error));
    }
  }

  function dialog(title: string, inputs: [string, string, string][], action: string, run: (data: Record<string, string>) => Promise<void>) {
    const overlay = el('div', { class: 'carousel', role: 'dialog', 'aria-modal': 'true' });
    const error = el('p', { class: 'error', role: 'alert' });
    const card = el('div', { class: 'card' }, el('h2', { text: title }));
    const fields: Record<string, HTMLInputElement | HTMLTextAreaElement> = {};
    for (const [id, label, type] of inputs) {
      fields[id] = type === 'textarea' ? el('textarea', { id }) : el('input', { id, type });
      card.append(el('label', { for: id, text: label }), fields[id]);
    }
    const go = el('button', { type: 'button', id: `${action}-confirm`, text: title });
    go.addEventListener('click', () => {
      const data = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.value]));
      run(data).catch((e) => (error.textContent = e.message));
    });
    card.append(
      error,
      el(
        'div',
        { class: 'actions' },
        go,
        link(t('client.form.cancel'), () => overlay.remove()),
      ),
    );
    overlay.append(card);
    document.body.append(overlay);
  }

  function decline() {
    dialog(t('client.decline.title'), [['decline-reason', t('client.decline.reason'), 'textarea']], 'decline', async (d) => {
      await send('POST', `/s/${state.slug}/decline`, { reason: d['decline-reason'] });
      window.location.reload();
    });
  }

  function delegate() {
    dialog(
      t('client.delegate.title'),
      [
        ['delegate-name', t('client.delegate.name'), 'text'],
        ['delegate-email', t('client.delegate.email'), 'email'],
      ],
      'delegate',
      async (d) => {
        await send('POST', `/s/${state.slug}/delegate`, { name: d['delegate-name'], email: d['delegate-email'] });
        document
          .querySelector('main')!
          .replaceChildren(
            el(
              'div',
              { class: 'card', id: 'delegated' },
              el('h1', { text: t('client.delegated.title') }),
              el('p', { text: t('client.delegated.text', { email: d['delegate-email'] }) }),
            ),
          );
        bar.remove();
      },
    );
  }

  window.addEventListener('pagehide', () => void flush());
  go(0);
}
