// The rules a field's value must meet (spec › Template field: type, pattern, validation preset, options).
// One module for the API's prefilled values and the signing page's checks, so both refuse the same things.
// It imports only the pattern engine and the image header reader (src/shared), so the signing page's
// browser script bundles it unchanged.
import { decodeBase64, imageSizeProblem, readImageHeader } from './image-header';
import { fieldPattern } from './field-pattern';
import type { MessageKey } from './i18n/translator';

/** A refusal in the signer's words: a catalog key and its values (the signing page formats it). */
export type FieldProblem = { key: MessageKey; values: Record<string, string | number> };

/** A value's refusal: the API's English sentence and the signing page's catalog message. */
export type FieldRefusal = { ok: false; problem: string; message: FieldProblem };

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
export const PRESET_PATTERNS: Record<string, { pattern: { test(text: string): boolean }; description: string; message: MessageKey }> = {
  ssn: {
    pattern: /^\d{3}-?\d{2}-?\d{4}$/,
    description: 'a US Social Security number like 123-45-6789',
    message: 'client.field_error.preset.ssn',
  },
  ein: {
    pattern: /^\d{2}-?\d{7}$/,
    description: 'a US Employer Identification Number like 12-3456789',
    message: 'client.field_error.preset.ein',
  },
  zip: { pattern: /^\d{5}(?:-\d{4})?$/, description: 'a US ZIP code like 12345 or 12345-6789', message: 'client.field_error.preset.zip' },
  us_phone: {
    pattern: /^(?:\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}$/,
    description: 'a US phone number like (555) 123-4567',
    message: 'client.field_error.preset.us_phone',
  },
  mm_dd_yyyy: {
    pattern: /^(?:0[1-9]|1[0-2])\/(?:0[1-9]|[12]\d|3[01])\/\d{4}$/,
    description: 'a date written MM/DD/YYYY',
    message: 'client.field_error.preset.mm_dd_yyyy',
  },
  email: { pattern: EMAIL, description: 'an email address', message: 'client.field_error.preset.email' },
  url: {
    pattern: /^https?:\/\/[^\s/$.?#][^\s]*$/i,
    description: 'a web address starting with http:// or https://',
    message: 'client.field_error.preset.url',
  },
  numbers_only: { pattern: /^\d+$/, description: 'digits only', message: 'client.field_error.preset.numbers_only' },
  letters_only: { pattern: /^\p{L}+$/u, description: 'letters only', message: 'client.field_error.preset.letters_only' },
};

/**
 * Images in values: PNG or JPEG, as a data URL or bare base64, at most this many bytes once decoded
 * and at most MAX_IMAGE_SIDE / MAX_IMAGE_PIXELS in size (./image-header.ts).
 */
export const MAX_INLINE_IMAGE_BYTES = 512 * 1024;
/** Text values (and anything textual) are at most this many characters. */
export const MAX_TEXT_LENGTH = 10_000;
const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;
/** Bare base64 is read as an image only when it starts as a PNG (\x89PNG) or a JPEG (FF D8 FF) does. */
const BARE_IMAGE_BASE64 = /^(?:iVBORw0KGgo|\/9j\/)[A-Za-z0-9+/]*={0,2}$/;
/** What a file field holds: the upload the signing page stored (POST /s/:slug/attachments). */
export const FILE_VALUE = /^attachment:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
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
 * An image value checked the way sealing will read it: real PNG or JPEG bytes whose header agrees
 * with the data URL's type, within the byte and pixel limits. Returns the value as stored (a data URL,
 * also for bare base64) or what is wrong, as the end of a sentence.
 */
function checkImage(base64: string, declared: 'png' | 'jpeg' | null): { ok: true; value: string } | { ok: false; what: string } {
  if (decodedLength(base64) > MAX_INLINE_IMAGE_BYTES)
    return { ok: false, what: `image is larger than ${MAX_INLINE_IMAGE_BYTES / 1024} KB.` };
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(base64);
  } catch {
    return { ok: false, what: 'image is not valid base64.' };
  }
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, what: 'is not a readable PNG or JPEG image (its data is damaged, truncated or of another format).' };
  if (declared && header.format !== declared) {
    return { ok: false, what: `is a ${header.format.toUpperCase()} image, but its data URL says image/${declared}.` };
  }
  const tooLarge = imageSizeProblem(header);
  if (tooLarge) return { ok: false, what: tooLarge };
  return { ok: true, value: declared ? `data:image/${declared};base64,${base64}` : `data:image/${header.format};base64,${base64}` };
}

/**
 * Checks one value against its field. Returns the value as stored (numbers as numbers, checkboxes as
 * booleans, text trimmed of nothing) or a sentence saying what is wrong, naming the field.
 */
export function checkFieldValue(field: ValueRules, value: unknown): { ok: true; value: unknown } | FieldRefusal {
  const label = `Field "${field.name}"`;
  const fail = (what: string, key: MessageKey, values: Record<string, string | number> = {}): FieldRefusal => ({
    ok: false,
    problem: `${label} ${what}`,
    message: { key, values: { name: field.name, ...values } },
  });
  if (isBlank(value)) return field.required ? fail('is required.', 'client.field_error.required') : { ok: true, value: null };

  switch (field.type) {
    case 'checkbox': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return fail('takes true or false.', 'client.field_error.checkbox');
    }
    case 'payment': {
      // The payment reference the signing page stores once paid (src/services/signing/field-payments.ts),
      // or the amount its formula computes while the form is open.
      if (typeof value === 'string' && /^[A-Za-z0-9_]{3,255}$/.test(value.trim()) && !/^\d/.test(value.trim()))
        return { ok: true, value: value.trim() };
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail('takes a payment reference.', 'client.field_error.payment');
      return { ok: true, value: n };
    }
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail('takes a number.', 'client.field_error.number');
      return { ok: true, value: n };
    }
    case 'radio':
    case 'select': {
      if (typeof value !== 'string' && typeof value !== 'number')
        return fail(`takes one of its options: ${(field.options ?? []).join(', ')}.`, 'client.field_error.option');
      const text = String(value);
      if (!(field.options ?? []).includes(text))
        return fail(
          `must be one of its options (${(field.options ?? []).map((o) => `"${o}"`).join(', ')}); "${text}" is not.`,
          'client.field_error.option',
        );
      return { ok: true, value: text };
    }
    case 'date':
    case 'datenow': {
      if (typeof value !== 'string' || !validDate(value.trim()))
        return fail('takes a date such as 2026-05-31 or 05/31/2026.', 'client.field_error.date');
      return { ok: true, value: value.trim() };
    }
    case 'phone': {
      if (typeof value !== 'string' || !PHONE.test(value.trim()))
        return fail('takes a phone number such as +1 555 123 4567.', 'client.field_error.phone');
      return checkPatterns(field, value.trim(), fail);
    }
    case 'signature':
    case 'initials':
    case 'image':
    case 'stamp': {
      const typedAllowed = field.type === 'signature' || field.type === 'initials';
      const takes = typedAllowed
        ? 'takes typed text (up to 255 characters) or a PNG or JPEG image as a data URL.'
        : 'takes a PNG or JPEG image as a data URL.';
      const takesKey: MessageKey = typedAllowed ? 'client.field_error.signature' : 'client.field_error.image';
      if (typeof value !== 'string') return fail(takes, takesKey);
      const dataUrl = IMAGE_DATA_URL.exec(value);
      const bare = dataUrl ? null : BARE_IMAGE_BASE64.test(value) ? value : null;
      if (dataUrl || bare !== null) {
        const image = dataUrl ? checkImage(dataUrl[2], dataUrl[1] as 'png' | 'jpeg') : checkImage(bare!, null);
        return image.ok ? image : fail(image.what, 'client.field_error.image_unreadable');
      }
      // A typed signature or initials: the text is drawn in the signature's box.
      if (typedAllowed && !value.startsWith('data:') && value.trim().length <= 255) {
        return value.trim() ? { ok: true, value: value.trim() } : fail('is required.', 'client.field_error.required');
      }
      return fail(takes, takesKey);
    }
    case 'file': {
      if (typeof value !== 'string' || !FILE_VALUE.test(value))
        return fail('takes a file the signer uploads on the signing page (attachment:<uuid>).', 'client.field_error.file');
      return { ok: true, value };
    }
    default: {
      // text, cells and anything textual.
      if (typeof value !== 'string' && typeof value !== 'number') return fail('takes text.', 'client.field_error.text');
      const text = String(value);
      if (text.length > MAX_TEXT_LENGTH)
        return fail(`is longer than ${MAX_TEXT_LENGTH.toLocaleString('en-US')} characters.`, 'client.field_error.too_long', {
          max: MAX_TEXT_LENGTH,
        });
      return checkPatterns(field, text, fail);
    }
  }
}

function checkPatterns(
  field: ValueRules,
  text: string,
  fail: (what: string, key: MessageKey, values?: Record<string, string | number>) => FieldRefusal,
): { ok: true; value: unknown } | FieldRefusal {
  const preset = field.validation ? PRESET_PATTERNS[field.validation] : undefined;
  if (preset && !preset.pattern.test(text)) return fail(`must be ${preset.description}.`, preset.message);
  if (field.pattern) {
    // Templates are checked when stored, so a pattern that cannot run is one stored before that rule.
    const pattern = fieldPattern(field.pattern);
    if (typeof pattern !== 'string' && !pattern.matches(text))
      return fail(`does not match the required format (${field.pattern}).`, 'client.field_error.format', { pattern: field.pattern });
  }
  return { ok: true, value: text };
}
