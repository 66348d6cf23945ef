// A template's schema as the API stores and shows it (spec › Template field, Area): the server's types
// (db/schema/templates.ts re-exports them) and the builder's in the browser (src/console/builder) are
// these, not copies. Pure: no imports, so any browser bundle takes it.

/** A signer role of a template (spec › Template › submitters). */
export type TemplateRole = { name: string; uuid: string };

/** One rectangle of a field on a document page (spec › Area); numbers are stored exactly as given. */
export type TemplateArea = { page: number; x: number; y: number; w: number; h: number; attachment_uuid: string };

/** Field types (spec › Template field › type); `datenow` fills the current date when the form opens. */
export const FIELD_TYPES = [
  'text',
  'signature',
  'initials',
  'date',
  'datenow',
  'checkbox',
  'radio',
  'select',
  'number',
  'phone',
  'image',
  'stamp',
  'cells',
  'payment',
  'file',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One element of a template's `schema` (spec › Template field). Optional keys are omitted when unset. */
export type TemplateField = {
  uuid: string;
  name: string;
  type: FieldType;
  submitter_uuid: string;
  required: boolean;
  readonly: boolean;
  key?: string;
  default_value?: string;
  placeholder?: string;
  pattern?: string;
  validation?: string;
  options?: string[];
  formula?: string;
  areas: TemplateArea[];
  preferences: Record<string, unknown>;
};

/** A template's or submission's document as the pages in the browser draw it (sizes before pdf.js has read it). */
export type DocumentView = {
  uuid: string;
  filename: string;
  page_count: number;
  page_dimensions: { width: number; height: number }[];
  url: string;
  /**
   * The pages as stored images, when the signing page can use them (src/services/signing/page-images.ts):
   * `url` with `{page}` and `{width}` filled in, at one of `widths` pixels. Absent: draw `url` with pdf.js.
   */
  page_images?: { url: string; widths: number[] };
};

/** A page's size before anything has read the PDF: the stored dimensions, the first page's, else US Letter. */
export function pageSize(doc: Pick<DocumentView, 'page_dimensions'> | undefined, page: number): { width: number; height: number } {
  return doc?.page_dimensions[page - 1] ?? doc?.page_dimensions[0] ?? { width: 612, height: 792 };
}

/** Named input masks (spec › Template field › validation). */
export const VALIDATION_PRESETS = ['ssn', 'ein', 'zip', 'us_phone', 'mm_dd_yyyy', 'email', 'url', 'numbers_only', 'letters_only'] as const;

/** What a field or document condition can test (spec › Template preferences › document_conditions). */
export const CONDITION_OPERATORS = ['equals', 'not_equals', 'contains', 'empty', 'not_empty', 'checked', 'unchecked'] as const;

/** An area as fractions of its page; numbers above 1 are PDF points from the top-left corner (docs/decisions.md › Areas). */
export function areaAsFractions<A extends TemplateArea>(area: A, page: { width: number; height: number }): A {
  if ([area.x, area.y, area.w, area.h].every((n) => n <= 1)) return area;
  return { ...area, x: area.x / page.width, y: area.y / page.height, w: area.w / page.width, h: area.h / page.height };
}
