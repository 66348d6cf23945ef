// The property panel of the selected field (every property of spec › Template field, with the field's
// condition and review_in_carousel) and the roles list: add, rename, reorder, remove. Inputs apply on
// `change`, each as one undoable step; the API's sentences about a field are shown beside its form.
import { CONDITION_OPERATORS, FIELD_TYPES, VALIDATION_PRESETS, type FieldType } from '../../shared/template-schema';
import { TYPE_LABELS, newUuid, type Field } from './builder-model';
import { el } from '../../browser/dom';
import type { Editor } from './editor';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function labelled(id: string, label: string, control: Control, hint?: string): HTMLElement {
  control.id = id;
  const wrap = el('div', { class: 'prop' }, el('label', { for: id, text: label }), control);
  if (hint) {
    control.setAttribute('aria-describedby', `${id}-hint`);
    wrap.append(el('p', { class: 'muted', id: `${id}-hint`, text: hint }));
  }
  return wrap;
}

function input(value: string | undefined, attrs: Record<string, string> = {}): HTMLInputElement {
  const node = el('input', attrs);
  node.value = value ?? '';
  return node;
}

function checkbox(id: string, label: string, checked: boolean, onChange: (checked: boolean) => void): HTMLElement {
  const box = el('input', { type: 'checkbox', id });
  box.checked = checked;
  box.addEventListener('change', () => onChange(box.checked));
  return el('div', { class: 'check' }, box, el('label', { for: id, text: label }));
}

function select(options: [string, string][], value: string): HTMLSelectElement {
  const node = el('select');
  for (const [v, text] of options) node.append(el('option', { value: v, text }));
  node.value = value;
  return node;
}

function optional(value: string): string | undefined {
  return value === '' ? undefined : value;
}

export function mountPanel(editor: Editor, root: HTMLElement): void {
  editor.onRender(() => {
    const focusedId = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    root.replaceChildren(...panelContent(editor));
    if (focusedId) document.getElementById(focusedId)?.focus();
  });
}

function panelContent(editor: Editor): Node[] {
  const field = editor.selectedField();
  if (!field) return [el('h2', { text: 'Field' }), el('p', { class: 'muted', text: 'Select a field on the page to edit its properties.' })];
  const set = (mutate: (f: Field) => void) => editor.change((draft) => mutate(draft.fields.find((f) => f.uuid === field.uuid)!));
  const on = <C extends Control>(control: C, apply: (control: C) => void): C => {
    control.addEventListener('change', () => apply(control));
    return control;
  };
  const errors = editor.fieldErrors.get(field.uuid) ?? [];
  const nodes: Node[] = [el('h2', { text: `Field: ${field.name}` })];
  if (errors.length) {
    nodes.push(el('ul', { class: 'error field-errors', id: 'field-errors', role: 'alert' }, ...errors.map((e) => el('li', { text: e }))));
  }
  const nameInput = on(input(field.name, { maxlength: '255' }), (c) => set((f) => (f.name = c.value.trim() || f.name)));
  if (errors.length) nameInput.setAttribute('aria-describedby', 'field-errors');
  nodes.push(labelled('field-name', 'Name', nameInput));
  nodes.push(
    labelled(
      'field-type',
      'Type',
      on(
        select(
          FIELD_TYPES.map((t) => [t, TYPE_LABELS[t]]),
          field.type,
        ),
        (c) =>
          set((f) => {
            f.type = c.value as FieldType;
            if ((f.type === 'select' || f.type === 'radio') && !f.options?.length) f.options = ['Option 1', 'Option 2'];
          }),
      ),
    ),
  );
  nodes.push(
    labelled(
      'field-role',
      'Role',
      on(
        select(
          editor.draft.submitters.map((r) => [r.uuid, r.name]),
          field.submitter_uuid,
        ),
        (c) => set((f) => (f.submitter_uuid = c.value)),
      ),
    ),
  );
  nodes.push(checkbox('field-required', 'Required', field.required, (v) => set((f) => (f.required = v))));
  nodes.push(checkbox('field-readonly', 'Read-only', field.readonly, (v) => set((f) => (f.readonly = v))));
  nodes.push(
    labelled(
      'field-default',
      'Default value',
      on(input(field.default_value), (c) => set((f) => (f.default_value = optional(c.value)))),
    ),
  );
  nodes.push(
    labelled(
      'field-placeholder',
      'Placeholder',
      on(input(field.placeholder), (c) => set((f) => (f.placeholder = optional(c.value)))),
    ),
  );
  nodes.push(
    labelled(
      'field-key',
      'Key',
      on(input(field.key), (c) => set((f) => (f.key = optional(c.value)))),
      'Your own name for the value in the API and webhooks.',
    ),
  );
  nodes.push(
    labelled(
      'field-validation',
      'Format preset',
      on(
        select([['', 'None'], ...VALIDATION_PRESETS.map((p): [string, string] => [p, p.replace(/_/g, ' ')])], field.validation ?? ''),
        (c) => set((f) => (f.validation = optional(c.value))),
      ),
    ),
  );
  nodes.push(
    labelled(
      'field-pattern',
      'Pattern',
      on(input(field.pattern), (c) => set((f) => (f.pattern = optional(c.value)))),
      'A regular expression the whole value must match.',
    ),
  );
  const options = el('textarea', { rows: '3' });
  options.value = (field.options ?? []).join('\n');
  nodes.push(
    labelled(
      'field-options',
      'Options',
      on(options, (c) =>
        set((f) => {
          const list = c.value
            .split('\n')
            .map((o) => o.trim())
            .filter(Boolean);
          f.options = list.length ? list : undefined;
        }),
      ),
      'One per line; select and radio fields need them.',
    ),
  );
  nodes.push(
    labelled(
      'field-formula',
      'Formula',
      on(input(field.formula), (c) => set((f) => (f.formula = optional(c.value)))),
      'Arithmetic over {Field Name} references, e.g. {Price} * {Quantity}.',
    ),
  );
  const review = field.preferences.review_in_carousel;
  nodes.push(
    labelled(
      'field-review',
      'Review in the confirmation carousel',
      on(
        select(
          [
            ['', 'As the document sets'],
            ['true', 'Always'],
            ['false', 'Never'],
          ],
          review === undefined ? '' : String(review),
        ),
        (c) =>
          set((f) => {
            if (c.value === '') delete f.preferences.review_in_carousel;
            else f.preferences.review_in_carousel = c.value === 'true';
          }),
      ),
    ),
  );
  if (field.type === 'date' || field.type === 'datenow') {
    nodes.push(
      labelled(
        'field-format',
        'Date format',
        on(input(typeof field.preferences.format === 'string' ? field.preferences.format : ''), (c) =>
          set((f) => {
            if (c.value === '') delete f.preferences.format;
            else f.preferences.format = c.value;
          }),
        ),
        'e.g. DD/MM/YYYY; the account’s locale when empty.',
      ),
    );
  }
  nodes.push(conditionEditor(editor, field, set));
  const actions = el('div', { class: 'actions' });
  const addArea = el('button', { type: 'button', class: 'secondary', text: 'Add another area' });
  addArea.addEventListener('click', () => {
    const last = field.areas[field.areas.length - 1];
    if (!last) return;
    editor.selected = { field: field.uuid, area: field.areas.length };
    set((f) => f.areas.push({ ...last, y: Math.min(last.y + last.h + 0.01, Math.max(0, 1 - last.h)) }));
  });
  const remove = el('button', { type: 'button', class: 'danger', text: 'Remove field' });
  remove.addEventListener('click', () => {
    editor.selected = null;
    editor.change((draft) =>
      draft.fields.splice(
        draft.fields.findIndex((f) => f.uuid === field.uuid),
        1,
      ),
    );
  });
  actions.append(addArea, remove);
  nodes.push(actions);
  return nodes;
}

/** A field's `preferences.condition`: show or hide it when another field's value meets a rule. */
function conditionEditor(editor: Editor, field: Field, set: (mutate: (f: Field) => void) => void): HTMLElement {
  const rule = field.preferences.condition;
  const first = rule?.conditions[0];
  const others = editor.draft.fields.filter((f) => f.uuid !== field.uuid);
  const action = select(
    [
      ['', 'Always shown'],
      ['show', 'Shown only when'],
      ['hide', 'Hidden when'],
    ],
    rule?.action ?? '',
  );
  const target = select([['', 'Choose a field'], ...others.map((f): [string, string] => [f.uuid, f.name])], first?.field_uuid ?? '');
  const operator = select(
    CONDITION_OPERATORS.map((o): [string, string] => [o, o.replace(/_/g, ' ')]),
    first?.operator ?? 'equals',
  );
  const value = input(first?.value);
  // A rule half chosen (a visibility without its field yet) changes nothing, so the panel keeps it.
  const apply = () => {
    if (action.value !== '' && target.value === '') return;
    set((f) => {
      if (action.value === '') delete f.preferences.condition;
      else
        f.preferences.condition = {
          action: action.value as 'show' | 'hide',
          conditions: [{ field_uuid: target.value, operator: operator.value, ...(value.value ? { value: value.value } : {}) }],
        };
    });
  };
  for (const control of [action, target, operator, value]) control.addEventListener('change', apply);
  return el(
    'fieldset',
    { class: 'condition' },
    el('legend', { text: 'Condition' }),
    labelled('field-condition-action', 'Visibility', action),
    labelled('field-condition-field', 'Field', target),
    labelled('field-condition-operator', 'Rule', operator),
    labelled('field-condition-value', 'Value', value),
  );
}

/** The roles: the one new fields get, rename, order (up/down), add, remove when no field uses it. */
export function mountRoles(editor: Editor, root: HTMLElement): void {
  editor.onRender(() => {
    const focusedId = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    const list = el('ol', { class: 'roles' });
    editor.draft.submitters.forEach((role, index) => {
      const name = input(role.name, { id: `role-name-${index}`, maxlength: '255', 'aria-label': `Role ${index + 1} name` });
      name.addEventListener('change', () =>
        editor.change((d) => (d.submitters[index].name = name.value.trim() || d.submitters[index].name)),
      );
      const active = el('input', {
        type: 'radio',
        name: 'active-role',
        id: `role-active-${index}`,
        'aria-label': `New fields for ${role.name}`,
      });
      active.checked = editor.activeRole === role.uuid;
      active.addEventListener('change', () => {
        editor.activeRole = role.uuid;
        editor.render();
      });
      const move = (by: number, text: string, id: string) => {
        const button = el('button', {
          type: 'button',
          class: 'secondary small',
          id,
          text,
          'aria-label': `${text === '↑' ? 'Move up' : 'Move down'}: ${role.name}`,
        });
        button.disabled = index + by < 0 || index + by >= editor.draft.submitters.length;
        button.addEventListener('click', () =>
          editor.change((d) => {
            const [moved] = d.submitters.splice(index, 1);
            d.submitters.splice(index + by, 0, moved);
          }),
        );
        return button;
      };
      const remove = el('button', {
        type: 'button',
        class: 'secondary small',
        id: `role-remove-${index}`,
        text: '✕',
        'aria-label': `Remove role ${role.name}`,
      });
      remove.disabled = editor.draft.submitters.length === 1 || editor.draft.fields.some((f) => f.submitter_uuid === role.uuid);
      remove.addEventListener('click', () => editor.change((d) => d.submitters.splice(index, 1)));
      list.append(el('li', {}, active, name, move(-1, '↑', `role-up-${index}`), move(1, '↓', `role-down-${index}`), remove));
    });
    const add = el('button', { type: 'button', class: 'secondary', id: 'role-add', text: 'Add role' });
    add.addEventListener('click', () => {
      const uuid = newUuid();
      editor.change((d) => d.submitters.push({ uuid, name: `Party ${d.submitters.length + 1}` }));
    });
    const errors = editor.roleErrors.length
      ? el('ul', { class: 'error', role: 'alert' }, ...editor.roleErrors.map((e) => el('li', { text: e })))
      : null;
    root.replaceChildren(
      el('h2', { text: 'Roles' }),
      el('p', { class: 'muted', text: 'The selected role gets new fields.' }),
      list,
      add,
      ...(errors ? [errors] : []),
    );
    if (focusedId) document.getElementById(focusedId)?.focus();
  });
}
