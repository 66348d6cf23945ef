// What each document of a submission shows once sealed: every submitter's values at their fields'
// areas, taken from the template as the submission froze it.
import type { Submitter, TemplateDocument, TemplateField } from '../../db/schema/index';
import type { FieldStamp, StampValue } from '../pdf/stamp';
import { decodeBase64 } from '../../shared/image-header';
import { isBlank } from '../../shared/field-values';
import { formatDateStamp } from './date-stamp';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';

const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;
const PICTURE_FIELDS = new Set(['signature', 'initials', 'image', 'stamp']);
/** Attachments have no value to draw; a payment field draws its paid payment (`PaidPaymentTexts`), not its stored reference alone. */
const NOT_DRAWN = new Set(['file', 'payment']);

/** What a paid payment field shows on the sealed page, by `submitter id:field uuid` (sealedPaymentText). */
export type PaidPaymentTexts = ReadonlyMap<string, string>;

/** The picture's bytes; none when the text is not base64 (the stamp then draws a placeholder). */
function pictureBytes(base64: string): Uint8Array {
  try {
    return decodeBase64(base64);
  } catch {
    return new Uint8Array(0);
  }
}

function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asText).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

const DATE_FIELDS = new Set(['date', 'datenow']);

/** A stored value as something to draw, or null when there is nothing to draw for it. */
export function stampValue(
  field: Pick<TemplateField, 'type'> & { preferences?: Record<string, unknown> },
  value: unknown,
  locale = 'en-US',
): { value: StampValue; typed?: boolean } | null {
  if (isBlank(value) || NOT_DRAWN.has(field.type)) return null;
  if (DATE_FIELDS.has(field.type) && typeof value === 'string') {
    return { value: { kind: 'text', text: formatDateStamp(value, { format: field.preferences?.format, locale }) } };
  }
  if (field.type === 'checkbox') return value === true || value === 'true' ? { value: { kind: 'check', checked: true } } : null;
  if (field.type === 'cells') return { value: { kind: 'cells', text: asText(value) } };
  if (PICTURE_FIELDS.has(field.type) && typeof value === 'string') {
    const image = IMAGE_DATA_URL.exec(value);
    if (image) return { value: { kind: 'image', format: image[1] as 'png' | 'jpeg', bytes: pictureBytes(image[2]) } };
    // A typed signature or initials: drawn as text in the oblique face.
    return { value: { kind: 'text', text: value }, typed: true };
  }
  return { value: { kind: 'text', text: asText(value) } };
}

/** The stamps of one template document: each field's value at each of its areas on that document. */
export function stampsForDocument(
  fields: readonly TemplateField[],
  submitters: readonly Submitter[],
  document: Pick<TemplateDocument, 'uuid' | 'pageCount'>,
  hidden: ReadonlySet<string> = new Set(),
  locale = 'en-US',
  payments: PaidPaymentTexts = new Map(),
  /** The language each signer signed in: a picture of theirs that cannot be drawn is marked in it. */
  languageOf: (submitter: Submitter) => Locale = () => DEFAULT_LOCALE,
): FieldStamp[] {
  const stamps: FieldStamp[] = [];
  for (const field of fields) {
    // A field its conditions hid was never part of the form the signer saw: nothing is drawn for it.
    if (hidden.has(field.uuid)) continue;
    const submitter = submitters.find((s) => s.roleUuid === field.submitter_uuid);
    const paid = field.type === 'payment' && submitter ? payments.get(`${submitter.id}:${field.uuid}`) : undefined;
    const drawn = paid
      ? { value: { kind: 'text' as const, text: paid } }
      : submitter
        ? stampValue(field, submitter.values[field.uuid], locale)
        : null;
    if (!drawn) continue;
    for (const area of field.areas) {
      if (area.attachment_uuid !== document.uuid || area.page < 1 || area.page > document.pageCount) continue;
      stamps.push({
        area,
        value: drawn.value,
        field: field.name,
        ...('typed' in drawn && drawn.typed ? { typed: true } : {}),
        ...(drawn.value.kind === 'image' && submitter
          ? { placeholder: translatorFor(languageOf(submitter))('audit.undrawn.placeholder') }
          : {}),
      });
    }
  }
  return stamps;
}
