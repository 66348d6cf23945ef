// The rules of a template's roles and fields (spec › Template field, Area): every reference resolved,
// every problem reported as a sentence naming the field, nothing stored until all of them pass.
import {
  FIELD_TYPES,
  type CertifiedForm,
  type FieldType,
  type PageDimensions,
  type TemplateArea,
  type TemplateField,
  type TemplateRole,
} from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { fieldPattern } from '../../shared/field-pattern';
import { checkFormula } from '../../shared/formula';
import { VALIDATION_PRESETS } from '../../shared/template-schema';
import { checkPaymentField } from '../payments/payment-field';

export { FIELD_TYPES, type FieldType };

const NEEDS_OPTIONS = new Set<string>(['select', 'radio']);
/** Role given to fields when the caller names none (DocuSeal's default). */
export const DEFAULT_ROLE_NAME = 'First Party';
/** Fractional coordinates may overshoot 1 by rounding; points by half a point. */
const FRACTION_SLACK = 1e-6;
const POINT_SLACK = 0.5;

export type AreaInput = { page: number; x: number; y: number; w: number; h: number; attachment_uuid?: string };

export type FieldInput = {
  uuid?: string;
  name?: string;
  type: FieldType;
  role?: string;
  submitter_uuid?: string;
  required?: boolean;
  readonly?: boolean;
  key?: string;
  default_value?: string | number | boolean;
  placeholder?: string;
  pattern?: string;
  /** A preset name, or DocuSeal's `{pattern, message}` form. */
  validation?: string | { pattern: string; message?: string };
  options?: string[];
  formula?: string;
  areas?: AreaInput[];
  preferences?: Record<string, unknown>;
};

export type RoleInput = { name: string; uuid?: string };

/** A field with where it came from: `label` names it in messages; areas default to `document`. */
export type LocatedField = { label: string; input: FieldInput; document?: string };

export type DocumentPages = {
  uuid: string;
  pageCount: number;
  pageDimensions: PageDimensions[];
  certifiedForm?: CertifiedForm | null;
};

/** Which template field types a form field of each type carries. */
const CARRIES: Record<CertifiedForm['fields'][number]['type'], ReadonlySet<string>> = {
  text: new Set(['text', 'number', 'date', 'datenow', 'email', 'phone', 'cells', 'verification']),
  checkbox: new Set(['checkbox']),
  radio: new Set(['radio']),
  select: new Set(['select']),
  signature: new Set(['signature', 'initials']),
};

/** Why a template field cannot be on a certified document, or null when it is one of the form's own. */
function certifiedFieldProblem(form: CertifiedForm, field: { name: string; type: string }): string | null {
  const own = form.fields.find((f) => f.name === field.name.trim());
  const allows = form.permission === 2 ? 'filling in those fields and signing' : 'filling in those fields, annotating and signing';
  const certified = `the document is certified by its author (DocMDP P=${form.permission}), which allows only ${allows}`;
  if (!own) {
    const names = form.fields.slice(0, 20).map((f) => `"${f.name}"`);
    const listed = names.length ? `its fields: ${names.join(', ')}${form.fields.length > 20 ? ', …' : ''}` : 'it has none';
    return `is not one of the document's own form fields; ${certified}, so no other field can be placed on it (${listed})`;
  }
  if (!CARRIES[own.type].has(field.type)) {
    return `is a ${field.type} field, but the document's own form field "${own.name}" is a ${own.type} field; ${certified}`;
  }
  return null;
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function describe(field: LocatedField): string {
  return field.input.name ? `${field.label} "${field.input.name}"` : field.label;
}

function fail(problems: string[]): never {
  throw unprocessable(problems.length === 1 ? problems[0] : problems);
}

/**
 * The template's roles: as given, or (when none are given) one per role name the fields use, in order
 * of first use, or a single default role.
 */
export function buildRoles(inputs: RoleInput[] | undefined, fields: LocatedField[]): TemplateRole[] {
  if (inputs === undefined) {
    const names: string[] = [];
    for (const { input } of fields) {
      if (input.role && !names.some((n) => sameName(n, input.role!))) names.push(input.role.trim());
    }
    if (names.length === 0) names.push(DEFAULT_ROLE_NAME);
    return names.map((name) => ({ name, uuid: crypto.randomUUID() }));
  }
  const problems: string[] = [];
  if (inputs.length === 0) problems.push('submitters must name at least one role.');
  const roles: TemplateRole[] = [];
  inputs.forEach((input, i) => {
    const name = input.name.trim();
    if (roles.some((r) => sameName(r.name, name)))
      problems.push(`submitters[${i}] repeats the role name "${name}"; role names must be unique.`);
    const uuid = input.uuid?.toLowerCase() ?? crypto.randomUUID();
    if (roles.some((r) => r.uuid === uuid)) problems.push(`submitters[${i}] repeats the uuid ${uuid}; role uuids must be unique.`);
    roles.push({ name, uuid });
  });
  if (problems.length) fail(problems);
  return roles;
}

/**
 * `roles` with a new role appended for every role name `fields` use that none of them has (ignoring
 * case), in order of first use: files added to a template may bring text tags naming new roles.
 * The same array when nothing is new.
 */
export function withRolesNamedBy(roles: TemplateRole[], fields: LocatedField[]): TemplateRole[] {
  const added: TemplateRole[] = [];
  for (const { input } of fields) {
    if (input.submitter_uuid || !input.role) continue;
    if ([...roles, ...added].some((r) => sameName(r.name, input.role!))) continue;
    added.push({ name: input.role.trim(), uuid: crypto.randomUUID() });
  }
  return added.length ? [...roles, ...added] : roles;
}

function resolveRole(field: LocatedField, roles: TemplateRole[], problems: string[]): string {
  const { role, submitter_uuid: submitterUuid } = field.input;
  if (submitterUuid) {
    const found = roles.find((r) => r.uuid === submitterUuid.toLowerCase());
    if (!found) {
      problems.push(`${describe(field)}: submitter_uuid ${submitterUuid} is not one of the template's submitters.`);
      return '';
    }
    if (role && !sameName(found.name, role)) {
      problems.push(`${describe(field)}: role "${role}" and submitter_uuid ${submitterUuid} name different submitters.`);
    }
    return found.uuid;
  }
  if (role) {
    const found = roles.find((r) => sameName(r.name, role));
    if (!found) {
      problems.push(`${describe(field)}: role "${role}" must match a template submitter (${roles.map((r) => `"${r.name}"`).join(', ')}).`);
      return '';
    }
    return found.uuid;
  }
  return roles[0].uuid;
}

function checkArea(
  field: LocatedField,
  area: AreaInput,
  index: number,
  documents: DocumentPages[],
  problems: string[],
): TemplateArea | null {
  const where = `${describe(field)}: areas[${index}]`;
  const documentUuid = area.attachment_uuid?.toLowerCase() ?? field.document ?? (documents.length === 1 ? documents[0].uuid : undefined);
  if (!documentUuid) {
    problems.push(`${where}.attachment_uuid is required because the template has several documents.`);
    return null;
  }
  const document = documents.find((d) => d.uuid === documentUuid);
  if (!document) {
    problems.push(`${where}.attachment_uuid ${documentUuid} is not a document of this template.`);
    return null;
  }
  if (area.page < 1 || area.page > document.pageCount) {
    problems.push(
      `${where}.page ${area.page} is outside the document, which has ${document.pageCount} ${document.pageCount === 1 ? 'page' : 'pages'} numbered from 1.`,
    );
    return null;
  }
  const { x, y, w, h } = area;
  if (x < 0 || y < 0) problems.push(`${where} must not start at a negative x or y.`);
  if (w <= 0 || h <= 0) problems.push(`${where} must have a positive width (w) and height (h).`);
  // Numbers up to 1 are fractions of the page; larger ones are PDF points from the top-left corner.
  const fractional = Math.max(x, y, w, h) <= 1;
  const size = document.pageDimensions[area.page - 1];
  const [maxX, maxY, slack] = fractional ? [1, 1, FRACTION_SLACK] : [size.width, size.height, POINT_SLACK];
  if (x + w > maxX + slack || y + h > maxY + slack) {
    problems.push(
      fractional
        ? `${where} extends past the edge of page ${area.page} (x + w and y + h must be at most 1).`
        : `${where} extends past the edge of page ${area.page}, which is ${size.width} × ${size.height} points.`,
    );
  }
  // Returned exactly as given (spec › Area); only the document reference is filled in.
  return { page: area.page, x, y, w, h, attachment_uuid: document.uuid };
}

function typeTitle(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/** Checks of a field's own settings (type-specific options, pattern, preset), shared with saved fields. */
export function checkFieldConfig(
  label: string,
  input: Pick<FieldInput, 'type' | 'pattern' | 'validation' | 'options' | 'formula'>,
  problems: string[],
): { pattern?: string; validation?: string; options?: string[] } {
  let pattern = input.pattern;
  let validation: string | undefined;
  if (typeof input.validation === 'string') {
    if ((VALIDATION_PRESETS as readonly string[]).includes(input.validation)) validation = input.validation;
    else problems.push(`${label}: validation "${input.validation}" is not a known preset; use one of ${VALIDATION_PRESETS.join(', ')}.`);
  } else if (input.validation) {
    pattern ??= input.validation.pattern;
  }
  const compiled = pattern === undefined ? undefined : fieldPattern(pattern);
  if (typeof compiled === 'string') problems.push(`${label}: ${compiled}`);

  const options = input.options?.map((o) => o.trim());
  if (NEEDS_OPTIONS.has(input.type) && !options?.length)
    problems.push(`${label}: a ${input.type} field needs options listing its choices.`);
  if (options?.some((o) => o === '')) problems.push(`${label}: options must not contain blank choices.`);
  if (options && new Set(options).size !== options.length) problems.push(`${label}: options must not repeat a choice.`);
  return { pattern, validation, options };
}

/** Validates and normalises fields against the template's roles and documents. */
export function buildFields(fields: LocatedField[], roles: TemplateRole[], documents: DocumentPages[]): TemplateField[] {
  const problems: string[] = [];
  const perType = new Map<string, number>();
  const uuids = new Set<string>();
  const built: TemplateField[] = [];

  fields.forEach((field) => {
    const { input } = field;
    const count = (perType.get(input.type) ?? 0) + 1;
    perType.set(input.type, count);
    const uuid = input.uuid?.toLowerCase() ?? crypto.randomUUID();
    if (uuids.has(uuid)) problems.push(`${describe(field)}: uuid ${uuid} is used by another field; field uuids must be unique.`);
    uuids.add(uuid);

    const submitterUuid = resolveRole(field, roles, problems);
    const areas = (input.areas ?? [])
      .map((area, i) => checkArea(field, area, i, documents, problems))
      .filter((a): a is TemplateArea => a !== null);

    // On a document certified for form filling (DocMDP P=2/3) a field must be one of its form's own.
    for (const uuid of new Set(areas.map((a) => a.attachment_uuid))) {
      const form = documents.find((d) => d.uuid === uuid)?.certifiedForm;
      const problem = form && certifiedFieldProblem(form, { name: input.name?.trim() ?? '', type: input.type });
      if (problem) problems.push(`${describe(field)} ${problem}.`);
    }
    const { pattern, validation, options } = checkFieldConfig(describe(field), input, problems);
    if (input.type === 'payment') checkPaymentField(describe(field), input, problems);

    const out: TemplateField = {
      uuid,
      name: input.name?.trim() || `${typeTitle(input.type)} Field ${count}`,
      type: input.type,
      submitter_uuid: submitterUuid,
      required: input.required ?? input.type !== 'checkbox',
      readonly: input.readonly ?? false,
      areas,
      preferences: input.preferences ?? {},
    };
    if (input.key !== undefined) out.key = input.key;
    if (input.default_value !== undefined) out.default_value = String(input.default_value);
    if (input.placeholder !== undefined) out.placeholder = input.placeholder;
    if (pattern !== undefined) out.pattern = pattern;
    if (validation !== undefined) out.validation = validation;
    if (options !== undefined) out.options = options;
    if (input.formula !== undefined) out.formula = input.formula;
    built.push(out);
  });

  checkFormulas(fields, built, problems);
  if (problems.length) fail(problems);
  return built;
}

/** Formulas parse, reference existing fields by unambiguous name, and never depend on themselves. */
function checkFormulas(located: LocatedField[], fields: TemplateField[], problems: string[]): void {
  const byName = new Map<string, TemplateField[]>();
  for (const f of fields) byName.set(f.name.toLowerCase(), [...(byName.get(f.name.toLowerCase()) ?? []), f]);
  const dependsOn = new Map<string, string[]>();
  fields.forEach((field, i) => {
    if (field.formula === undefined) return;
    const label = describe(located[i]);
    const check = checkFormula(field.formula);
    if (!check.ok) {
      problems.push(`${label}: formula ${check.problem}.`);
      return;
    }
    const targets: string[] = [];
    for (const ref of check.references) {
      const matches = byName.get(ref.toLowerCase()) ?? [];
      if (matches.length === 0) problems.push(`${label}: formula references {${ref}}, which is not a field of this template.`);
      else if (matches.length > 1) problems.push(`${label}: formula references {${ref}}, but several fields have that name.`);
      else targets.push(matches[0].uuid);
    }
    dependsOn.set(field.uuid, targets);
  });
  // Depth-first search for a cycle among formula fields.
  const state = new Map<string, 'visiting' | 'done'>();
  const cyclic = (uuid: string): boolean => {
    if (state.get(uuid) === 'done') return false;
    if (state.get(uuid) === 'visiting') return true;
    state.set(uuid, 'visiting');
    const found = (dependsOn.get(uuid) ?? []).some(cyclic);
    state.set(uuid, 'done');
    return found;
  };
  fields.forEach((field, i) => {
    if (dependsOn.has(field.uuid) && state.get(field.uuid) !== 'done' && cyclic(field.uuid)) {
      problems.push(`${describe(located[i])}: formula depends on itself through the fields it references.`);
    }
  });
}

/** Stored fields as inputs again, e.g. to re-check them after the documents or roles change. */
export function storedAsInputs(fields: TemplateField[]): LocatedField[] {
  return fields.map((f, i) => ({
    label: `schema[${i}]`,
    input: { ...f, areas: f.areas },
  }));
}
