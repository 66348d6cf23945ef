// The builder's document: the template's roles, fields and preferences as the editor changes them, an
// undo history of snapshots, and the geometry of areas. Areas are page fractions (0–1, top-left origin)
// and are kept exactly as placed: no rounding, so what is saved is what is read back (spec › Area).

import { BRANDING_KEYS } from '../../shared/branding-keys';
import type { ConditionRule } from '../../shared/form-rules';
import { type FieldType, type TemplateArea, type TemplateField, type TemplateRole } from '../../shared/template-schema';

export const TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text',
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  datenow: 'Date now',
  checkbox: 'Checkbox',
  radio: 'Radio',
  select: 'Select',
  number: 'Number',
  phone: 'Phone',
  image: 'Image',
  stamp: 'Stamp',
  cells: 'Cells',
  payment: 'Payment',
  file: 'File',
};

export type Area = TemplateArea;
export type Role = TemplateRole;
/** A template field as the builder edits it: the stored shape, with the preferences it reads typed. */
export type Field = TemplateField & { preferences: Record<string, unknown> & { review_in_carousel?: boolean; condition?: ConditionRule } };
export type Draft = { name: string; folder_name: string; submitters: Role[]; fields: Field[]; preferences: Record<string, unknown> };

/** Template preference keys the templates API takes back (preferencesInputSchema); others are not sent. */
export const PREFERENCE_KEYS = [
  ...BRANDING_KEYS,
  'brand_id',
  'custom_domain',
  'signing_nav_style',
  'require_email_2fa',
  'require_phone_2fa',
  'carousel_review_documents',
  'document_conditions',
] as const;

/** A new area's size as a page fraction, by type: wide for text, square-ish for boxes. */
const DEFAULT_SIZE: Partial<Record<FieldType, { w: number; h: number }>> = {
  signature: { w: 0.25, h: 0.06 },
  initials: { w: 0.1, h: 0.05 },
  checkbox: { w: 0.03, h: 0.022 },
  radio: { w: 0.2, h: 0.022 },
  image: { w: 0.2, h: 0.1 },
  stamp: { w: 0.15, h: 0.08 },
  cells: { w: 0.3, h: 0.03 },
  date: { w: 0.15, h: 0.03 },
  datenow: { w: 0.15, h: 0.03 },
};
export function defaultSize(type: FieldType): { w: number; h: number } {
  return DEFAULT_SIZE[type] ?? { w: 0.25, h: 0.03 };
}

/** The smallest area the builder makes: 0.5 % of the page a side. */
export const MIN_SIDE = 0.005;

/** Keeps an area on its page: the size first (at most the page), then the position. */
export function clampArea(area: Area): Area {
  const w = Math.min(Math.max(area.w, MIN_SIDE), 1);
  const h = Math.min(Math.max(area.h, MIN_SIDE), 1);
  return { ...area, w, h, x: Math.min(Math.max(area.x, 0), 1 - w), y: Math.min(Math.max(area.y, 0), 1 - h) };
}

/** Resizes from the top-left corner, which stays put: the size is kept between MIN_SIDE and the page's edge. */
export function resizeArea(area: Area, dw: number, dh: number): Area {
  return {
    ...area,
    w: Math.min(Math.max(area.w + dw, MIN_SIDE), Math.max(1 - area.x, MIN_SIDE)),
    h: Math.min(Math.max(area.h + dh, MIN_SIDE), Math.max(1 - area.y, MIN_SIDE)),
  };
}

export function newUuid(): string {
  return crypto.randomUUID();
}

export function newField(type: FieldType, draft: Draft, roleUuid: string, area: Area): Field {
  const sameType = draft.fields.filter((f) => f.type === type).length;
  const field: Field = {
    uuid: newUuid(),
    name: `${TYPE_LABELS[type]} Field ${sameType + 1}`,
    type,
    submitter_uuid: roleUuid,
    required: type !== 'checkbox',
    readonly: false,
    areas: [clampArea(area)],
    preferences: {},
  };
  if (type === 'select' || type === 'radio') field.options = ['Option 1', 'Option 2'];
  return field;
}

/** The field as PUT /api/templates/{id} takes it: unset and empty optional keys left out. */
export function fieldForSave(field: Field): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uuid: field.uuid,
    name: field.name,
    type: field.type,
    submitter_uuid: field.submitter_uuid,
    required: field.required,
    readonly: field.readonly,
    areas: field.areas,
    preferences: field.preferences,
  };
  for (const key of ['key', 'default_value', 'placeholder', 'pattern', 'validation', 'formula'] as const) {
    if (field[key] !== undefined && field[key] !== '') out[key] = field[key];
  }
  if (field.options && (field.type === 'select' || field.type === 'radio' || field.options.length)) out.options = field.options;
  return out;
}

export function draftForSave(draft: Draft): Record<string, unknown> {
  const preferences: Record<string, unknown> = {};
  for (const key of PREFERENCE_KEYS) if (key in draft.preferences) preferences[key] = draft.preferences[key];
  return {
    name: draft.name,
    folder_name: draft.folder_name,
    submitters: draft.submitters,
    fields: draft.fields.map(fieldForSave),
    preferences,
  };
}

/** The draft as the API returned it (a template): keys the builder edits, nothing else. */
export function draftFromTemplate(template: {
  name: string;
  folder_name: string;
  submitters: Role[];
  schema: Field[];
  preferences: Record<string, unknown>;
}): Draft {
  return {
    name: template.name,
    folder_name: template.folder_name,
    submitters: template.submitters.map((r) => ({ ...r })),
    fields: template.schema.map((f) => ({
      ...f,
      default_value: f.default_value === undefined ? undefined : String(f.default_value),
      areas: f.areas.map((a) => ({ ...a })),
      preferences: { ...(f.preferences ?? {}) },
    })),
    preferences: { ...template.preferences },
  };
}

/** Snapshots of the draft: `record()` before each change, `undo()` returns to the last one. */
export class History {
  private snapshots: string[] = [];
  constructor(private readonly limit = 200) {}
  record(draft: Draft): void {
    this.recordSnapshot(JSON.stringify(draft));
  }
  /** A snapshot taken earlier, e.g. when a drag started, recorded once the drag changed something. */
  recordSnapshot(snapshot: string): void {
    this.snapshots.push(snapshot);
    if (this.snapshots.length > this.limit) this.snapshots.shift();
  }
  undo(): Draft | null {
    const last = this.snapshots.pop();
    return last ? (JSON.parse(last) as Draft) : null;
  }
  get size(): number {
    return this.snapshots.length;
  }
}

/**
 * Which field each API sentence concerns: PUT reports `fields[i] …` for the i-th field sent (the draft's
 * order), `submitters[i] …` for roles; the rest concern the template.
 */
export function sortErrors(sentences: string[], draft: Draft): { byField: Map<string, string[]>; roles: string[]; general: string[] } {
  const byField = new Map<string, string[]>();
  const roles: string[] = [];
  const general: string[] = [];
  for (const sentence of sentences) {
    const field = /^(?:fields|schema)\[(\d+)\]/.exec(sentence);
    const uuid = field ? draft.fields[Number(field[1])]?.uuid : undefined;
    if (uuid) byField.set(uuid, [...(byField.get(uuid) ?? []), sentence]);
    else if (/^(submitters|roles)\b/.test(sentence)) roles.push(sentence);
    else general.push(sentence);
  }
  return { byField, roles, general };
}
