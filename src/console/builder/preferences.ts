// The template preferences (spec › Template preferences) the builder edits: branding keys, navigation,
// email verification, the carousel's documents and document conditions (as JSON). Empty clears a key.
import type { DocumentView } from '../../shared/template-schema';
import { el } from '../../browser/dom';
import type { Editor } from './editor';

const TEXT_KEYS = [
  ['display_title', 'Display title'],
  ['company_name', 'Company name'],
  ['logo_url', 'Logo URL'],
  ['favicon_url', 'Favicon URL'],
  ['header_color', 'Header colour (#rrggbb)'],
  ['primary_button_color', 'Button colour (#rrggbb)'],
  ['custom_domain', 'Signing domain'],
] as const;

export function mountPreferences(editor: Editor, root: HTMLElement, documents: DocumentView[]): void {
  editor.onRender(() => {
    if (root.contains(document.activeElement)) return; // redrawing would lose what is being typed
    root.replaceChildren(...content(editor, documents));
  });
}

function content(editor: Editor, documents: DocumentView[]): Node[] {
  const prefs = editor.draft.preferences;
  const setKey = (key: string, value: unknown) =>
    editor.change((d) => {
      d.preferences[key] = value;
    });
  const nodes: Node[] = [el('h2', { text: 'Template preferences' })];
  for (const [key, label] of TEXT_KEYS) {
    const id = `pref-${key}`;
    const control = el('input', { id });
    control.value = typeof prefs[key] === 'string' ? (prefs[key] as string) : '';
    control.addEventListener('change', () => setKey(key, control.value.trim() === '' ? null : control.value.trim()));
    nodes.push(el('div', { class: 'prop' }, el('label', { for: id, text: label }), control));
  }
  const nav = el('select', { id: 'pref-signing_nav_style' });
  for (const [v, t] of [
    ['', 'Account default'],
    ['standard', 'Previous/Next buttons'],
    ['branded_bar', 'Sticky bar in the header colour'],
  ])
    nav.append(el('option', { value: v, text: t }));
  nav.value = typeof prefs.signing_nav_style === 'string' ? prefs.signing_nav_style : '';
  nav.addEventListener('change', () => setKey('signing_nav_style', nav.value || null));
  nodes.push(el('div', { class: 'prop' }, el('label', { for: 'pref-signing_nav_style', text: 'Signing navigation' }), nav));
  for (const [key, label] of [
    ['require_email_2fa', 'Signers verify their email with a code first'],
    ['require_phone_2fa', 'Signers verify their phone with a code first'],
    ['show_branding', 'Show branding'],
  ] as const) {
    const box = el('input', { type: 'checkbox', id: `pref-${key}` });
    box.checked = prefs[key] === true;
    box.addEventListener('change', () => setKey(key, box.checked));
    nodes.push(el('div', { class: 'check' }, box, el('label', { for: `pref-${key}`, text: label })));
  }
  const carousel = Array.isArray(prefs.carousel_review_documents) ? (prefs.carousel_review_documents as string[]) : [];
  const group = el('fieldset', {}, el('legend', { text: 'Review every field of these documents in the carousel' }));
  documents.forEach((doc, i) => {
    const box = el('input', { type: 'checkbox', id: `pref-carousel-${i}` });
    box.checked = carousel.includes(doc.uuid);
    box.addEventListener('change', () => {
      const next = documents.filter((d, j) => (j === i ? box.checked : carousel.includes(d.uuid))).map((d) => d.uuid);
      setKey('carousel_review_documents', next.length ? next : null);
    });
    group.append(el('div', { class: 'check' }, box, el('label', { for: `pref-carousel-${i}`, text: doc.filename })));
  });
  nodes.push(group);
  const conditions = el('textarea', { id: 'pref-document_conditions', rows: '3' });
  conditions.value = prefs.document_conditions ? JSON.stringify(prefs.document_conditions) : '';
  const conditionsError = el('p', { class: 'error', id: 'pref-document_conditions-error', role: 'alert' });
  conditions.addEventListener('change', () => {
    if (conditions.value.trim() === '') return setKey('document_conditions', null);
    try {
      setKey('document_conditions', JSON.parse(conditions.value));
    } catch {
      conditionsError.textContent = 'Document conditions must be JSON: {"<document uuid>": {"action": "show", "conditions": [...]}}.';
    }
  });
  nodes.push(
    el(
      'div',
      { class: 'prop' },
      el('label', { for: 'pref-document_conditions', text: 'Document conditions (JSON)' }),
      conditions,
      conditionsError,
    ),
  );
  return nodes;
}
