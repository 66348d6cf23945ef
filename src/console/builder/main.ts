// The template builder's script (issue 15 › 4), bundled to /vendor/builder/builder.js: on
// /templates/new it uploads a PDF (POST /api/templates/pdf) and opens the builder; on
// /templates/{id}/edit it loads the template, draws its pages and lets fields be placed by dragging
// from the palette (pointer events: mouse, pen, touch) or added from it by keyboard; Ctrl+Z undoes;
// Save sends PUT /api/templates/{id}, which keeps a version, and shows its 422 sentences by field.
import { bearerAuth, createApiClient, errorSentences, sessionAuth, type ApiClient } from '../../browser/api';
import { mountAreas } from './areas';
import { FIELD_TYPES, type DocumentView, type FieldType } from '../../shared/template-schema';
import { TYPE_LABELS, defaultSize, draftForSave, draftFromTemplate, newField, sortErrors } from './builder-model';
import { el } from '../../browser/dom';
import type { HostMessenger } from '../../browser/host-messages';
import { embedHost, takeTokenFromUrl } from './embed-host';
import { Editor } from './editor';
import { pageKey, renderPages, type PageMap } from './pages';
import { mountPanel, mountRoles } from './panel';
import { mountPreferences } from './preferences';

function startUpload(form: HTMLFormElement, api: ApiClient): void {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const status = form.querySelector<HTMLElement>('[role="status"]')!;
    const file = form.querySelector<HTMLInputElement>('input[type=file]')!.files?.[0];
    if (!file) {
      status.className = 'error';
      status.textContent = 'Choose a PDF file to upload.';
      return;
    }
    const body = new FormData();
    const name = (form.querySelector<HTMLInputElement>('input[name=name]')!.value ?? '').trim();
    if (name) body.append('name', name);
    body.append('documents[0][file]', file, file.name);
    status.className = 'muted';
    status.textContent = 'Uploading…';
    const result = await api.call('POST', form.dataset.upload ?? '/templates/pdf', body); // a path under the API base
    if (!result.ok) {
      status.className = 'error';
      status.textContent = errorSentences(result).join(' ');
      return;
    }
    window.location.assign(`/templates/${encodeURIComponent(result.json.id)}/edit`);
  });
}

function layout(root: HTMLElement): void {
  root.replaceChildren(
    el(
      'div',
      { class: 'builder-bar' },
      el('label', { for: 'template-name', text: 'Template name' }),
      el('input', { id: 'template-name', maxlength: '255' }),
      el('label', { for: 'template-folder', text: 'Folder' }),
      el('input', { id: 'template-folder', maxlength: '255' }),
      el('button', { type: 'button', id: 'builder-undo', class: 'secondary', text: 'Undo', 'aria-keyshortcuts': 'Control+Z' }),
      el('button', { type: 'button', id: 'builder-save', text: 'Save' }),
      el('p', { role: 'status', 'aria-live': 'polite', id: 'builder-status' }),
    ),
    el('ul', { class: 'error', id: 'builder-errors', role: 'alert' }),
    el(
      'div',
      { class: 'builder-grid' },
      el(
        'aside',
        { class: 'builder-side', 'aria-label': 'Fields and roles' },
        el(
          'section',
          { id: 'builder-palette', 'aria-labelledby': 'palette-heading' },
          el('h2', { id: 'palette-heading', text: 'Add a field' }),
          el('p', { class: 'muted', text: 'Drag a type onto a page, or press it to add one to the selected page.' }),
          el(
            'div',
            { class: 'palette' },
            ...FIELD_TYPES.map((type) => el('button', { type: 'button', class: 'secondary', 'data-type': type, text: TYPE_LABELS[type] })),
          ),
        ),
        el('section', { id: 'builder-roles', 'aria-label': 'Roles' }),
      ),
      el(
        'div',
        { class: 'builder-pages-column' },
        el('p', {
          class: 'muted',
          id: 'area-keys',
          text: 'Arrow keys move a field, Shift+arrows resize it, Alt makes the step finer, Delete removes it.',
        }),
        el('div', { id: 'builder-pages' }),
      ),
      el(
        'aside',
        { class: 'builder-side', 'aria-label': 'Properties' },
        el('section', { id: 'builder-panel' }),
        el('section', { id: 'builder-preferences' }),
      ),
    ),
  );
}

/** The page under a point, and the point as fractions of it. */
function pageAt(x: number, y: number): { page: HTMLElement; fx: number; fy: number } | null {
  const page = document.elementFromPoint(x, y)?.closest<HTMLElement>('.page');
  if (!page) return null;
  const rect = page.getBoundingClientRect();
  return { page, fx: (x - rect.left) / rect.width, fy: (y - rect.top) / rect.height };
}

function startPalette(editor: Editor, pages: PageMap, documents: DocumentView[]): void {
  const palette = document.querySelector<HTMLElement>('#builder-palette .palette')!;
  const add = (type: FieldType, documentUuid: string, page: number, x: number, y: number) => {
    const size = defaultSize(type);
    const field = newField(type, editor.draft, editor.activeRole, { page, x, y, w: size.w, h: size.h, attachment_uuid: documentUuid });
    editor.selected = { field: field.uuid, area: 0 };
    editor.change((d) => d.fields.push(field));
    document.querySelector<HTMLElement>(`.area[data-field="${field.uuid}"]`)?.focus();
  };
  let dragged = false;
  palette.addEventListener('pointerdown', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-type]');
    if (!button || event.button !== 0) return;
    const type = button.dataset.type as FieldType;
    const from = { x: event.clientX, y: event.clientY };
    let ghost: HTMLElement | null = null;
    dragged = false;
    button.setPointerCapture(event.pointerId);
    const onMove = (e: PointerEvent) => {
      if (!dragged && Math.abs(e.clientX - from.x) + Math.abs(e.clientY - from.y) < 4) return;
      dragged = true;
      ghost ??= document.body.appendChild(el('div', { class: 'drag-ghost', 'aria-hidden': 'true', text: TYPE_LABELS[type] }));
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
    };
    const onUp = (e: PointerEvent) => {
      button.removeEventListener('pointermove', onMove);
      button.removeEventListener('pointerup', onUp);
      button.removeEventListener('pointercancel', onUp);
      ghost?.remove();
      if (!dragged || e.type === 'pointercancel') return;
      // The area's top-left corner is where the pointer was let go (docs/decisions.md › issue 15).
      const target = pageAt(e.clientX, e.clientY);
      if (target) add(type, target.page.dataset.document!, Number(target.page.dataset.page), target.fx, target.fy);
    };
    button.addEventListener('pointermove', onMove);
    button.addEventListener('pointerup', onUp);
    button.addEventListener('pointercancel', onUp);
  });
  palette.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-type]');
    if (!button) return;
    if (dragged) {
      dragged = false;
      return;
    }
    // By keyboard (or a click without a drag): onto the selected field's page, else the first page.
    const selected = editor.selectedField()?.areas[editor.selected!.area];
    const documentUuid = selected?.attachment_uuid ?? documents[0]?.uuid;
    const page = selected?.page ?? 1;
    if (!documentUuid || !pages.has(pageKey(documentUuid, page))) return; // a template without documents has no page
    add(button.dataset.type as FieldType, documentUuid, page, 0.1, 0.1);
  });
}

async function startBuilder(root: HTMLElement, api: ApiClient, host?: HostMessenger): Promise<void> {
  const id = root.dataset.templateId!;
  const loaded = await api.call('GET', `/templates/${encodeURIComponent(id)}`);
  if (!loaded.ok) {
    root.replaceChildren(el('p', { class: 'error', role: 'alert', text: errorSentences(loaded).join(' ') }));
    return;
  }
  const documents = loaded.json.documents as DocumentView[];
  const editor = new Editor(draftFromTemplate(loaded.json));
  layout(root);
  const pages = renderPages(document.getElementById('builder-pages')!, documents, api.auth);
  mountAreas(editor, pages, documents);
  mountRoles(editor, document.getElementById('builder-roles')!);
  mountPanel(editor, document.getElementById('builder-panel')!);
  mountPreferences(editor, document.getElementById('builder-preferences')!, documents);
  startPalette(editor, pages, documents);

  const name = document.getElementById('template-name') as HTMLInputElement;
  const folder = document.getElementById('template-folder') as HTMLInputElement;
  const status = document.getElementById('builder-status')!;
  const errorList = document.getElementById('builder-errors')!;
  editor.onRender(() => {
    if (document.activeElement !== name) name.value = editor.draft.name;
    if (document.activeElement !== folder) folder.value = editor.draft.folder_name;
  });
  name.addEventListener('change', () => editor.change((d) => (d.name = name.value.trim() || d.name)));
  folder.addEventListener('change', () => editor.change((d) => (d.folder_name = folder.value.trim())));

  const undo = () => {
    status.className = 'muted';
    status.textContent = editor.undo() ? 'Undone.' : 'Nothing to undo.';
  };
  document.getElementById('builder-undo')!.addEventListener('click', undo);
  document.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z' || event.shiftKey) return;
    const target = event.target as HTMLElement;
    if (target.matches('input:not([type=checkbox]):not([type=radio]), textarea')) return; // the field's own text undo
    event.preventDefault();
    undo();
  });

  const save = document.getElementById('builder-save') as HTMLButtonElement;
  save.addEventListener('click', async () => {
    save.disabled = true;
    status.className = 'muted';
    status.textContent = 'Saving…';
    const sent = editor.draft;
    const result = await api.call('PUT', `/templates/${encodeURIComponent(id)}`, draftForSave(sent));
    save.disabled = false;
    if (!result.ok) {
      const { byField, roles, general } = sortErrors(errorSentences(result), sent);
      editor.fieldErrors = byField;
      editor.roleErrors = roles;
      errorList.replaceChildren(
        ...general.map((s) => el('li', { text: s })),
        ...[...byField.entries()].map(([uuid, sentences]) => {
          const field = sent.fields.find((f) => f.uuid === uuid)!;
          const link = el('button', { type: 'button', class: 'link', text: `${field.name}: ${sentences.join(' ')}` });
          link.addEventListener('click', () => {
            editor.select({ field: uuid, area: 0 });
            document.getElementById('field-name')?.focus();
          });
          return el('li', {}, link);
        }),
      );
      if (byField.size && !editor.selected) editor.selected = { field: [...byField.keys()][0], area: 0 };
      status.className = 'error';
      status.textContent = `Not saved: ${byField.size + roles.length + general.length > 1 ? 'fix the problems listed' : 'fix the problem shown'}.`;
      editor.render();
      return;
    }
    editor.fieldErrors = new Map();
    editor.roleErrors = [];
    errorList.replaceChildren();
    editor.dirty = false;
    status.className = 'notice';
    status.textContent = `Saved as version ${result.json.version}.`;
    editor.render();
    // name and submitters too: DocuSeal's `save` detail is the template (src/browser/docuseal-events.ts).
    // The API names the template's fields `schema`.
    host?.post('saved', {
      version: result.json.version,
      name: result.json.name,
      fields: result.json.schema ?? [],
      submitters: result.json.submitters ?? [],
    });
  });
  if (root.dataset.readOnly === 'true') {
    // A token without `edit` opens the builder to look at; the API would refuse the save (403).
    save.disabled = true;
    status.className = 'muted';
    status.textContent = 'View only: this embed token does not allow saving.';
  }
  window.addEventListener('beforeunload', (event) => {
    if (editor.dirty) event.preventDefault();
  });

  editor.render();
  root.dataset.ready = 'true';
  host?.post('load');
}

const api = createApiClient('/api', sessionAuth());
const upload = document.querySelector<HTMLFormElement>('form[data-upload]');
if (upload) startUpload(upload, api);
const builder = document.getElementById('template-builder');
if (builder?.dataset.embedded === 'true') {
  // Framed with a builder embed token (/embed/builder/{id}?token=…): bearer auth, messages to the host.
  const auth = bearerAuth(takeTokenFromUrl());
  void startBuilder(builder, createApiClient(builder.dataset.apiBase ?? '/api', auth), embedHost(builder.dataset.templateId!));
} else if (builder) void startBuilder(builder, createApiClient(builder.dataset.apiBase ?? '/api', sessionAuth()));
