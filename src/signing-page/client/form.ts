// The signing form: fields over the drawn pages, a stepper (Previous/Next or the branded bar), checks
// shared with the server, autosave, the confirmation carousel, submit, decline and delegate.
import { checkFieldValue, isBlank } from '../../shared/field-values';
import { hiddenFields, reviewedFields, withFormulas } from '../../shared/form-rules';
import { $, el } from '../../browser/dom';
import { send } from './api';
import type { DocumentView } from '../../shared/template-schema';
import { areaBox } from './documents';
import { widgetFor, type Field, type PaymentStates, type Widget } from './widgets';
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
  let currentWidget: Widget | undefined;

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
        // The stepper holds the field's control; the area is the mouse's way to it, silent to a screen reader.
        'aria-hidden': 'true',
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

  /** The fields the signer steps through, in reading order: visible ones, stamps of formulas included for display. */
  const ordered = readingOrder(state.fields, state.documents);
  const steps = () => ordered.filter((f) => !hidden.has(f.uuid));

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
    // A correction clears the field's invalid state as soon as the value passes.
    const invalid = bar.querySelectorAll('[aria-invalid="true"]');
    if (invalid.length && !problemOf(field)) {
      for (const node of invalid) node.removeAttribute('aria-invalid');
      message('');
    }
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
    currentWidget = widget;
    const prev = el('button', { type: 'button', class: 'secondary', id: 'previous', text: t('client.form.previous') });
    const next = el('button', { type: 'button', id: 'next', text: t('client.form.next') });
    const submit = el('button', { type: 'button', id: 'submit', text: t('client.form.submit') });
    prev.toggleAttribute('disabled', current === 0);
    prev.addEventListener('click', () => go(current - 1));
    next.addEventListener('click', () => {
      const problem = problemOf(field);
      if (problem) return showProblem(problem, widget);
      message('');
      go(current + 1);
    });
    submit.addEventListener('click', () => void review());
    const last = current === list.length - 1;
    bar.replaceChildren(
      fieldBlock(field, widget),
      el('p', { class: 'error', id: 'form-error', role: 'alert' }),
      el('div', { class: 'row' }, prev, el('span', { class: 'muted', id: 'progress', text: progress() }), last ? submit : next),
      el(
        'div',
        { class: 'row' },
        link(t('client.form.decline'), decline, 'decline'),
        link(t('client.form.delegate'), delegate, 'delegate'),
        last ? el('span') : submit,
      ),
    );
    paintAreas();
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    areas.get(field.uuid)?.[0]?.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' });
    // Focus goes to the field (or its group when it has no control), never back to the page's start.
    widget.focus();
    if (!bar.contains(document.activeElement)) $('#field-block', bar)?.focus();
  }

  /** The refusal under the field, announced, and tied to the field's control as its description. */
  function showProblem(problem: string, widget: Widget) {
    message(problem);
    const controls = widget.control ? [widget.control] : [...bar.querySelectorAll<HTMLElement>('#field-input input, #sig-typed')];
    for (const control of controls) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', 'form-error');
    }
    widget.focus();
  }

  function link(text: string, action: () => void, id?: string) {
    const a = el('button', { type: 'button', class: 'secondary', id, text });
    a.addEventListener('click', action);
    return a;
  }

  async function review() {
    const list = steps();
    const firstProblem = list.map((f) => [f, problemOf(f)] as const).find(([, p]) => p);
    if (firstProblem) {
      go(list.indexOf(firstProblem[0]));
      return showProblem(firstProblem[1]!, currentWidget!);
    }
    const reviewed = reviewedFields(list, state.preferences, hidden);
    if (reviewed.length === 0) return submitAll();
    let i = 0;
    const overlay = el('div', {
      class: 'carousel',
      id: 'carousel',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'carousel-title',
    });
    const show = () => {
      const f = reviewed[i];
      const v = values[f.uuid];
      const shown =
        typeof v === 'string' && v.startsWith('data:image/')
          ? el('img', { src: v, alt: f.name })
          : el('p', { text: isBlank(v) ? '—' : String(v) });
      const back = link(t('client.review.back'), () => (i === 0 ? close() : ((i -= 1), show())));
      const on = el('button', {
        type: 'button',
        id: i === reviewed.length - 1 ? 'confirm-submit' : 'carousel-next',
        text: i === reviewed.length - 1 ? t('client.review.confirm') : t('client.review.looks_right'),
      });
      on.addEventListener('click', () => (i === reviewed.length - 1 ? (close(), void submitAll()) : ((i += 1), show())));
      overlay.replaceChildren(
        el(
          'div',
          { class: 'card' },
          el('h2', { id: 'carousel-title', text: t('client.review.title', { index: i + 1, total: reviewed.length, name: f.name }) }),
          shown,
          el('div', { class: 'actions' }, back, on),
        ),
      );
      on.focus();
    };
    const close = openDialog(overlay);
    show();
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
    const overlay = el('div', { class: 'carousel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': `${action}-title` });
    const error = el('p', { class: 'error', role: 'alert' });
    const card = el('div', { class: 'card' }, el('h2', { id: `${action}-title`, text: title }));
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
        link(t('client.form.cancel'), () => close()),
      ),
    );
    overlay.append(card);
    const close = openDialog(overlay);
    Object.values(fields)[0]?.focus();
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

/**
 * The field as native labelled markup (issue 31 › 4): a control under its `<label>` (a checkbox before
 * it), or a group of controls in a `<fieldset>` named by its `<legend>`. Required shows as an asterisk
 * and is announced from `aria-required` on the control (its label's words for a date, number, file or
 * checkbox), or from the legend's words for a group.
 */
function fieldBlock(field: Field, widget: Widget): HTMLElement {
  const star = field.required ? el('span', { class: 'required-mark', 'aria-hidden': 'true', text: ' *' }) : null;
  const spoken = field.required ? el('span', { class: 'visually-hidden', text: ` (${t('client.field.required')})` }) : null;
  if (widget.control) {
    // `aria-required`, not `required`: the native attribute makes an empty field "invalid" before the signer
    // has typed anything. Date, number and file inputs have no role that takes it, and Chromium does not
    // announce it on a checkbox: their label says it.
    const roleless = widget.control instanceof HTMLInputElement && ['date', 'number', 'file', 'checkbox'].includes(widget.control.type);
    if (field.required && !roleless) widget.control.setAttribute('aria-required', 'true');
    const label = el('label', { for: 'field-input' }, field.name, star, roleless ? spoken : null);
    if (widget.checkbox) return el('div', { class: 'check', id: 'field-block', tabindex: '-1' }, widget.node, label);
    return el('div', { id: 'field-block', tabindex: '-1' }, label, widget.node);
  }
  return el('fieldset', { id: 'field-block', tabindex: '-1' }, el('legend', {}, field.name, star, spoken), widget.node);
}

/** The fields by where their first area sits: document, page, line (to a fiftieth of the page), then across. */
function readingOrder(fields: Field[], documents: DocumentView[]): Field[] {
  const position = (field: Field): number[] => {
    const area = field.areas[0];
    const doc = area ? documents.findIndex((d) => d.uuid === area.attachment_uuid) : -1;
    if (!area || doc < 0) return [Infinity];
    const page = documents[doc].page_dimensions[area.page - 1] ?? documents[doc].page_dimensions[0] ?? { width: 612, height: 792 };
    const box = areaBox(area, page);
    return [doc, area.page, Math.round(box.top / 2), box.left];
  };
  const keyed = fields.map((field, index) => ({ field, index, at: position(field) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < Math.max(a.at.length, b.at.length); i += 1) {
      const d = (a.at[i] ?? 0) - (b.at[i] ?? 0);
      if (d) return d;
    }
    return a.index - b.index;
  });
  return keyed.map((k) => k.field);
}

/**
 * Shows a modal dialog: focus moves into it, Escape closes it, Tab stays within it, and closing
 * returns focus to where it was. Returns the close function.
 */
function openDialog(overlay: HTMLElement): () => void {
  const before = document.activeElement as HTMLElement | null;
  const close = () => {
    overlay.remove();
    before?.focus();
  };
  overlay.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') return close();
    if (event.key !== 'Tab') return;
    const focusable = [...overlay.querySelectorAll<HTMLElement>('button, input, textarea, select, a[href]')].filter(
      (n) => !n.hasAttribute('disabled'),
    );
    const [first, last] = [focusable[0], focusable.at(-1)];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  });
  document.body.append(overlay);
  return close;
}
