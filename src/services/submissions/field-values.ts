// The rules a field's value must meet (spec › Template field: type, pattern, validation preset, options).
// One module for the API's prefilled values and the signing page's checks, so both refuse the same things.
// It imports only the pattern engine, so the signing page's browser script can bundle it unchanged.
import { fieldPattern } from './field-pattern';

/** The parts of a template field the checks read. */
export type ValueRules = {
  name: string;
  type: string;
  required?: boolean;
  pattern?: string;
  validation?: string;
  options?: string[];
};

/** The longest email address accepted (RFC 5321 §4.5.3.1.3: a path is at most 256 octets, 254 without its brackets). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * Whether `text` looks like an email address: one `@` with something before it, a domain with a dot
 * inside it, no whitespace. Written as index scans, not a regular expression: the old
 * /^[^\s@]+@[^\s@]+\.[^\s@]+$/ backtracks quadratically, so a 64 KB value took seconds. The length is
 * checked first, so no scan ever reads more than MAX_EMAIL_LENGTH characters.
 */
export function isEmailAddress(text: string): boolean {
  if (text.length > MAX_EMAIL_LENGTH) return false;
  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@') || /\s/.test(text)) return false;
  // The domain needs a dot with at least one character on each side of it.
  const dot = text.indexOf('.', at + 2);
  return dot !== -1 && dot < text.length - 1;
}

/** An email address as submitters' contact details accept it (RegExp's `test` shape, linear time). */
export const EMAIL = { test: isEmailAddress };

/** Preset input masks (spec: presets for SSN, EIN, ZIP code, US phone, MM/DD/YYYY and more). */
export const PRESET_PATTERNS: Record<string, { pattern: { test(text: string): boolean }; description: string }> = {
  ssn: { pattern: /^\d{3}-?\d{2}-?\d{4}$/, description: 'a US Social Security number like 123-45-6789' },
  ein: { pattern: /^\d{2}-?\d{7}$/, description: 'a US Employer Identification Number like 12-3456789' },
  zip: { pattern: /^\d{5}(?:-\d{4})?$/, description: 'a US ZIP code like 12345 or 12345-6789' },
  us_phone: { pattern: /^(?:\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}$/, description: 'a US phone number like (555) 123-4567' },
  mm_dd_yyyy: { pattern: /^(?:0[1-9]|1[0-2])\/(?:0[1-9]|[12]\d|3[01])\/\d{4}$/, description: 'a date written MM/DD/YYYY' },
  email: { pattern: EMAIL, description: 'an email address' },
  url: { pattern: /^https?:\/\/[^\s/$.?#][^\s]*$/i, description: 'a web address starting with http:// or https://' },
  numbers_only: { pattern: /^\d+$/, description: 'digits only' },
  letters_only: { pattern: /^\p{L}+$/u, description: 'letters only' },
};

/** Images in values: PNG or JPEG data URLs, at most this many bytes once decoded. */
export const MAX_INLINE_IMAGE_BYTES = 512 * 1024;
const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;
const IMAGE_TYPES = new Set(['signature', 'initials', 'image', 'stamp']);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** A phone number as the API and the page accept it: digits with an optional +, spaces, dots, dashes, parentheses. */
export const PHONE = /^\+?[0-9 ().-]{7,24}$/;

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function validDate(text: string): boolean {
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [, y, m, d] = iso.map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }
  return PRESET_PATTERNS.mm_dd_yyyy.pattern.test(text);
}

function decodedLength(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/**
 * Checks one value against its field. Returns the value as stored (numbers as numbers, checkboxes as
 * booleans, text trimmed of nothing) or a sentence saying what is wrong, naming the field.
 */
export function checkFieldValue(field: ValueRules, value: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  const label = `Field "${field.name}"`;
  const fail = (what: string) => ({ ok: false as const, problem: `${label} ${what}` });
  if (isBlank(value)) return field.required ? fail('is required.') : { ok: true, value: null };

  switch (field.type) {
    case 'checkbox': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return fail('takes true or false.');
    }
    case 'number':
    case 'payment': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail('takes a number.');
      return { ok: true, value: n };
    }
    case 'radio':
    case 'select': {
      if (typeof value !== 'string' && typeof value !== 'number') return fail(`takes one of its options: ${(field.options ?? []).join(', ')}.`);
      const text = String(value);
      if (!(field.options ?? []).includes(text)) return fail(`must be one of its options (${(field.options ?? []).map((o) => `"${o}"`).join(', ')}); "${text}" is not.`);
      return { ok: true, value: text };
    }
    case 'date':
    case 'datenow': {
      if (typeof value !== 'string' || !validDate(value.trim())) return fail('takes a date such as 2026-05-31 or 05/31/2026.');
      return { ok: true, value: value.trim() };
    }
    case 'phone': {
      if (typeof value !== 'string' || !PHONE.test(value.trim())) return fail('takes a phone number such as +1 555 123 4567.');
      return checkPatterns(field, value.trim(), fail);
    }
    case 'signature':
    case 'initials':
    case 'image':
    case 'stamp': {
      if (typeof value !== 'string') return fail('takes a PNG or JPEG image as a data URL.');
      const image = IMAGE_DATA_URL.exec(value);
      if (image) {
        if (decodedLength(image[1]) > MAX_INLINE_IMAGE_BYTES) return fail(`image is larger than ${MAX_INLINE_IMAGE_BYTES / 1024} KB.`);
        return { ok: true, value };
      }
      // A typed signature or initials: the text is drawn in the signature's box.
      if ((field.type === 'signature' || field.type === 'initials') && !value.startsWith('data:') && value.trim().length <= 255) {
        return value.trim() ? { ok: true, value: value.trim() } : fail('is required.');
      }
      return fail(IMAGE_TYPES.has(field.type) && field.type !== 'image' && field.type !== 'stamp'
        ? 'takes typed text (up to 255 characters) or a PNG or JPEG image as a data URL.'
        : 'takes a PNG or JPEG image as a data URL.');
    }
    case 'file': {
      if (typeof value !== 'string') return fail('takes a file reference.');
      return { ok: true, value };
    }
    default: {
      // text, cells and anything textual.
      if (typeof value !== 'string' && typeof value !== 'number') return fail('takes text.');
      const text = String(value);
      if (text.length > 10_000) return fail('is longer than 10,000 characters.');
      return checkPatterns(field, text, fail);
    }
  }
}

function checkPatterns(
  field: ValueRules,
  text: string,
  fail: (what: string) => { ok: false; problem: string },
): { ok: true; value: unknown } | { ok: false; problem: string } {
  const preset = field.validation ? PRESET_PATTERNS[field.validation] : undefined;
  if (preset && !preset.pattern.test(text)) return fail(`must be ${preset.description}.`);
  if (field.pattern) {
    // Templates are checked when stored, so a pattern that cannot run is one stored before that rule.
    const pattern = fieldPattern(field.pattern);
    if (typeof pattern !== 'string' && !pattern.matches(text)) return fail(`does not match the required format (${field.pattern}).`);
  }
  return { ok: true, value: text };
}
