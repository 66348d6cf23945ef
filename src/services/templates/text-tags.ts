// Text tags (spec › Template document; DocuSeal's syntax): `{{Name;type=date;role=Signer 1;required=true}}`
// in a document's text becomes a field where the tag is printed, and the tag itself is hidden.
// Parsing is here; finding tags on pages and hiding them is in document-fields.ts.
import { FIELD_TYPES, type FieldType } from '../../db/schema/index';
import type { FieldInput } from './template-fields';

/** A tag as printed: `{{` up to the next `}}`, no braces inside. */
export const TAG_PATTERN = /\{\{([^{}]{1,500})\}\}/g;

/** Most roles one template's tags may name (as the submitters list, templates.schemas.ts). */
export const MAX_TAG_ROLES = 50;

const BOOLEAN = new Set(['required', 'readonly']);
/** Option names accepted, DocuSeal's with its aliases; anything else is refused so typos surface. */
const OPTIONS = new Set(['name', 'type', 'role', 'required', 'readonly', 'default', 'value', 'options', 'width', 'height', 'format']);
/** DocuSeal's type aliases. */
const TYPE_ALIASES: Record<string, FieldType> = {
  sign: 'signature',
  initial: 'initials',
  check: 'checkbox',
  dropdown: 'select',
  list: 'select',
};

/** A parsed tag: the field it asks for and its size hints in points. */
export type ParsedTag = { field: FieldInput; width?: number; height?: number };

export class BadTag extends Error {}

function parseBoolean(key: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '') return true;
  if (value === 'false') return false;
  throw new BadTag(`${key} must be true or false, not "${raw}"`);
}

function parseSize(key: string, raw: string): number {
  const value = Number(raw.trim().replace(/pt$/i, ''));
  if (!Number.isFinite(value) || value <= 0 || value > 2000)
    throw new BadTag(`${key} must be a size in points between 0 and 2000, not "${raw}"`);
  return value;
}

/** The inside of one tag (without braces) as a field; throws BadTag with the reason. */
export function parseTag(body: string): ParsedTag {
  const [first, ...rest] = body.split(';');
  const field: FieldInput = { type: 'text' };
  const parsed: ParsedTag = { field };
  const parts = first.includes('=') ? [first, ...rest] : rest;
  if (!first.includes('=') && first.trim()) field.name = first.trim();
  for (const part of parts) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    const key = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    if (!OPTIONS.has(key)) throw new BadTag(`"${key}" is not a text tag option (use ${[...OPTIONS].join(', ')})`);
    if (BOOLEAN.has(key)) {
      field[key as 'required' | 'readonly'] = parseBoolean(key, raw);
    } else if (key === 'type') {
      const name = raw.trim().toLowerCase();
      const type = TYPE_ALIASES[name] ?? (FIELD_TYPES as readonly string[]).find((t) => t === name);
      if (!type) throw new BadTag(`type "${raw.trim()}" is not a field type (use ${FIELD_TYPES.join(', ')})`);
      field.type = type as FieldType;
    } else if (key === 'name') field.name = raw.trim();
    else if (key === 'role') field.role = raw.trim();
    else if (key === 'default' || key === 'value') field.default_value = raw;
    else if (key === 'options')
      field.options = raw
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
    else if (key === 'format') field.preferences = { ...field.preferences, format: raw.trim() };
    else if (key === 'width') parsed.width = parseSize(key, raw);
    else if (key === 'height') parsed.height = parseSize(key, raw);
  }
  if (field.role === '') throw new BadTag('role must not be empty');
  return parsed;
}
