// Fields a PDF brings with it (spec › Template document; decisions.md › Documents in): its AcroForm
// fields and its text tags become template fields, and the stored PDF keeps neither live widgets nor
// visible tags. One entry point, `extractDocumentFields`, for uploaded PDFs, printed HTML and (later)
// rendered DOCX alike.
import { Buffer } from 'node:buffer';
import {
  PDFArray,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFName,
  ParseSpeeds,
  PDFOptionList,
  PDFRadioGroup,
  PDFRawStream,
  PDFRef,
  PDFSignature,
  PDFTextField,
  rgb,
  type PDFField,
  type PDFObject,
  type PDFPage,
} from 'pdf-lib';
import { ApiError, unprocessable } from '../../lib/errors';
import { UPLOAD_LIMITS } from '../documents/ingest';
import { looksLikePdf, mentionsByteRange } from '../pdf/pdf-file';
import { dropUsageRights, existingSignatures } from '../pdf/existing-signatures';
import { decodeStreamWithin, STRUCTURE_STREAMS_BUDGET } from '../pdf/bounded-decode';
import { loadPdf } from '../pdf/load-pdf';
import { readPageText } from '../pdf/page-text';
import { ReadingLimitExceeded } from '../pdf/reading-limits';
import { dictOrNothing, readContentsThroughXref, type PageContent, type Resolve } from '../pdf/xref-reader';
import { BadTag, MAX_TAG_ROLES, parseTag, TAG_PATTERN } from './text-tags';
import { blankTagStrings } from './blank-tags';
import type { AreaInput, FieldInput } from './template-fields';

/** Most AcroForm fields imported from one file; more is refused rather than half imported. */
export const MAX_FORM_FIELDS = 500;
/** Most text tags read from one file. */
export const MAX_TEXT_TAGS = 500;

export type DocumentFields = { bytes: Uint8Array; fields: FieldInput[] };

type Box = { x: number; y: number; width: number; height: number };
type PageFrame = { x: number; y: number; width: number; height: number };

const NAME = {
  AcroForm: PDFName.of('AcroForm'),
  Annots: PDFName.of('Annots'),
  Subtype: PDFName.of('Subtype'),
  Widget: PDFName.of('Widget'),
  Contents: PDFName.of('Contents'),
  Font: PDFName.of('Font'),
  XObject: PDFName.of('XObject'),
  Type0: PDFName.of('Type0'),
  Form: PDFName.of('Form'),
  Perms: PDFName.of('Perms'),
  Resources: PDFName.of('Resources'),
} as const;

/** A box in PDF user space as an area in fractions of the page, from its top-left (geometry.ts). */
function toArea(box: Box, frame: PageFrame, page: number): AreaInput {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const x = clamp((box.x - frame.x) / frame.width);
  const y = clamp((frame.y + frame.height - (box.y + box.height)) / frame.height);
  return { page, x, y, w: clamp(Math.min(box.width / frame.width, 1 - x)), h: clamp(Math.min(box.height / frame.height, 1 - y)) };
}

function frameOf(page: PDFPage): PageFrame {
  return page.getCropBox();
}

// ---- AcroForm ----

function fieldType(field: PDFField): { type: FieldInput['type']; options?: string[] } | undefined {
  if (field instanceof PDFTextField) return { type: 'text' };
  if (field instanceof PDFCheckBox) return { type: 'checkbox' };
  if (field instanceof PDFRadioGroup) return { type: 'radio', options: field.getOptions() };
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) return { type: 'select', options: field.getOptions() };
  if (field instanceof PDFSignature) return { type: 'signature' };
  return undefined; // push buttons carry no value
}

/** Which page each widget annotation sits on, from the pages' /Annots (a widget's /P is optional). */
function widgetPages(pages: PDFPage[]): Map<PDFRef, number> {
  const at = new Map<PDFRef, number>();
  pages.forEach((page, i) => {
    const annots = page.node.lookupMaybe(NAME.Annots, PDFArray);
    for (const ref of annots?.asArray() ?? []) if (ref instanceof PDFRef && !at.has(ref)) at.set(ref, i);
  });
  return at;
}

/** The form's fields as template fields; a form pdf-lib cannot walk (cyclic /Kids, broken dicts) gives none. */
function importForm(pdf: PDFDocument, label: string): FieldInput[] {
  if (!pdf.catalog.has(NAME.AcroForm)) return [];
  let fields: PDFField[];
  try {
    fields = pdf.getForm().getFields();
  } catch {
    return [];
  }
  if (fields.length > MAX_FORM_FIELDS) {
    throw unprocessable(`${label} has ${fields.length} form fields; at most ${MAX_FORM_FIELDS} can be imported.`);
  }
  const pages = pdf.getPages();
  const onPage = widgetPages(pages);
  const imported: FieldInput[] = [];
  const names = new Set<string>();
  for (const field of fields) {
    try {
      const kind = fieldType(field);
      // A signature field already signed takes no value (a certification's own, on a certified form).
      if (!kind || (kind.type === 'signature' && field.acroField.dict.has(PDFName.of('V')))) continue;
      const areas: AreaInput[] = [];
      for (const widget of field.acroField.getWidgets()) {
        const ref = pdf.context.getObjectRef(widget.dict);
        const index = (ref && onPage.get(ref)) ?? pages.findIndex((p) => p.ref === widget.P());
        if (index === undefined || index < 0) continue;
        const rect = widget.getRectangle();
        if (![rect.x, rect.y, rect.width, rect.height].every(Number.isFinite) || rect.width <= 0 || rect.height <= 0) continue;
        areas.push(toArea(rect, frameOf(pages[index]), index + 1));
        if (kind.type !== 'radio') break; // one box per field; a radio group has one per option
      }
      if (areas.length === 0) continue; // no widget on a page (missing /Rect, orphan): nothing to place
      const options = kind.options?.filter((o) => o.trim());
      if ((kind.type === 'radio' || kind.type === 'select') && !options?.length) continue;
      let name = field.getName().trim() || `Field ${imported.length + 1}`;
      while (names.has(name.toLowerCase())) name = `${name} (${imported.length + 1})`;
      names.add(name.toLowerCase());
      imported.push({
        name,
        type: kind.type,
        ...(options ? { options } : {}),
        ...(field.isRequired() ? { required: true } : {}),
        ...(field.isReadOnly() ? { readonly: true } : {}),
        areas,
      });
    } catch {
      // One malformed field (wrong value types, missing entries) is skipped, not the upload.
    }
  }
  return imported;
}

/** Removes the form and its widgets, so stamped values never sit under live fields. */
function removeForm(pdf: PDFDocument): void {
  pdf.catalog.delete(NAME.AcroForm);
  for (const page of pdf.getPages()) {
    const annots = page.node.lookupMaybe(NAME.Annots, PDFArray);
    if (!annots) continue;
    const kept = annots.asArray().filter((ref) => {
      const annot = pdf.context.lookup(ref);
      return !(annot instanceof PDFDict && annot.get(NAME.Subtype) === NAME.Widget);
    });
    page.node.set(NAME.Annots, pdf.context.obj(kept));
  }
}

// ---- Text tags ----

type FoundTag = { page: number; text: string; box: Box };

/** Tags in the page text, each with its printed box (its share of the run's width, one font size high). */
async function findTags(bytes: Uint8Array, loaded: PDFDocument): Promise<FoundTag[]> {
  const found: FoundTag[] = [];
  const pages = await readPageText(bytes, loaded);
  pages.forEach(({ runs }, i) => {
    for (const run of runs) {
      for (const match of run.text.matchAll(TAG_PATTERN)) {
        const share = run.width / Math.max(1, run.text.length);
        found.push({
          page: i + 1,
          text: match[0],
          box: { x: run.x + share * match.index, y: run.y - run.size * 0.25, width: share * match[0].length, height: run.size * 1.2 },
        });
      }
    }
  });
  return found;
}

function tagFields(tags: FoundTag[], pages: PDFPage[], label: string): FieldInput[] {
  if (tags.length > MAX_TEXT_TAGS) throw unprocessable(`${label} has ${tags.length} text tags; at most ${MAX_TEXT_TAGS} are read.`);
  const problems: string[] = [];
  const roles = new Set<string>();
  const fields: FieldInput[] = [];
  for (const tag of tags) {
    const where = `${label} page ${tag.page}: text tag ${tag.text}`;
    try {
      const { field, width, height } = parseTag(tag.text.slice(2, -2));
      if (field.role) roles.add(field.role.toLowerCase());
      if (roles.size > MAX_TAG_ROLES)
        throw new BadTag(`it names role "${field.role}", past the ${MAX_TAG_ROLES} roles a template can have`);
      const top = tag.box.y + tag.box.height;
      const box = { x: tag.box.x, width: width ?? tag.box.width, height: height ?? tag.box.height, y: top - (height ?? tag.box.height) };
      fields.push({ ...field, areas: [toArea(box, frameOf(pages[tag.page - 1]), tag.page)] });
    } catch (error) {
      if (!(error instanceof BadTag)) throw error;
      problems.push(`${where}: ${error.message}.`);
    }
  }
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  return fields;
}

/**
 * Whether a resource dictionary names a two-byte (Type0) font, whose text the bytes do not show. A font
 * in `read` (by its reference, or the dictionary itself when inline) was read already for this file and
 * was not one: pages share fonts, and a writer may name one font anew for every line (pdf-lib does).
 */
async function hasTwoByteFont(resolve: Resolve, resources: PDFDict | undefined, read: Set<PDFObject>): Promise<boolean> {
  const fonts = await dictOrNothing(resolve, resources?.get(NAME.Font));
  for (const ref of fonts?.values() ?? []) {
    if (read.has(ref)) continue;
    read.add(ref);
    const font = await resolve(ref);
    if (font instanceof PDFDict && font.get(NAME.Subtype) === NAME.Type0) return true;
  }
  return false;
}

/** PDF white space (ISO 32000-1 table 1), skipped between a hex string's digits. */
const WHITE_SPACE = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE_SPACE[b] = 1;

/** A hex digit's value, else -1. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i += 1) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * A test of whether the digit at a position begins a byte of a hex string: an even number of hex
 * digits (white space aside) back to its `<`, which is not a dictionary's `<<`; anything else on the
 * way (a delimiter, a name, an operator) means it is in none. Asked at rising positions, a walk back
 * stops at the position asked before and counts on from its answer, so a stream is walked once however
 * many digits are asked about (in `<5 7B7B7B…` every walk would otherwise go back to the `<`).
 */
function hexByteStarts(data: Uint8Array): (at: number) => boolean {
  let last = -1;
  let lastDigits = -1; // hex digits between the string's `<` and `last`; -1: `last` is in none
  return (at) => {
    let digits = 0;
    let before = -1;
    for (let i = at - 1; i >= 0; i -= 1) {
      const byte = data[i];
      if (i === last) {
        before = lastDigits < 0 ? -1 : lastDigits + 1 + digits;
        break;
      }
      if (byte === 0x3c) {
        before = data[i - 1] === 0x3c ? -1 : digits;
        break;
      }
      if (WHITE_SPACE[byte]) continue;
      if (HEX_VALUE[byte] < 0) break;
      digits += 1;
    }
    last = at;
    lastDigits = before;
    return before >= 0 && before % 2 === 0;
  };
}

/**
 * Whether content may show a brace, the opening of a tag: a `{` byte anywhere (in a literal string, or
 * elsewhere: an inline image's data is not told apart), the escape `\173`, or the byte 7B in a hex
 * string. A single brace is enough, so a tag whose two braces a writer kerned apart (`[({) -20 ({)] TJ`)
 * or wrote in two strings still sends the file to the full reading, whose text extraction decides.
 * The bytes are searched as a Latin-1 string (one character a byte), whose one-character searches are
 * native and fast where a Buffer's are a call each (bench/templates); only what is around each `\` and
 * each `B` or `b` found is looked at.
 */
function showsBrace(data: Uint8Array): boolean {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  if (text.includes('{')) return true;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 2)) {
    // After the backslash and the byte it escapes (`\\173` is a backslash, then digits), look on.
    if (text.startsWith('173', at + 1)) return true;
  }
  for (const digit of ['B', 'b']) {
    const beginsHexByte = hexByteStarts(data);
    for (let at = text.indexOf(digit, 1); at !== -1; at = text.indexOf(digit, at + 1)) {
      let seven = at - 1; // white space may stand between a byte's two digits
      while (seven > 0 && WHITE_SPACE[data[seven]]) seven -= 1;
      if (data[seven] === 0x37 && beginsHexByte(seven)) return true;
    }
  }
  return false;
}

/**
 * Whether the file may hold a tag, read cheaply before pdf.js parses it all: a page's (or its form
 * XObjects') content shows a brace as text or hex, or uses a two-byte font, whose text only a full reading
 * can tell. Content past the decoding budget is not read for tags (the decode throws). The pages come
 * from pdf-lib's load or from the xref (surelyBringsNothing), `resolve` reading references of either.
 */
async function mayHoldTags(pages: PageContent[], resolve: Resolve): Promise<boolean> {
  let budget = STRUCTURE_STREAMS_BUDGET;
  // What was read already for this file and showed nothing: fonts, and streams (a letterhead form
  // XObject on every page, content shared by pages) are read once, not once per page.
  const fontsRead = new Set<PDFObject>();
  const streamsRead = new Set<PDFObject>();
  const shows = (stream: unknown): boolean => {
    if (!(stream instanceof PDFRawStream) || streamsRead.has(stream)) return false;
    streamsRead.add(stream);
    const data = decodeStreamWithin(stream, budget);
    budget -= data.length;
    return showsBrace(data);
  };
  for (const { resources, contents } of pages) {
    if (await hasTwoByteFont(resolve, resources, fontsRead)) return true;
    const resolved = await resolve(contents);
    const streams = resolved instanceof PDFArray ? await Promise.all(resolved.asArray().map(resolve)) : [resolved];
    const xobjects = await dictOrNothing(resolve, resources?.get(NAME.XObject));
    for (const ref of xobjects?.values() ?? []) {
      const xobject = await resolve(ref);
      if (!(xobject instanceof PDFRawStream) || xobject.dict.get(NAME.Subtype) !== NAME.Form || streamsRead.has(xobject)) continue;
      if (await hasTwoByteFont(resolve, await dictOrNothing(resolve, xobject.dict.get(NAME.Resources)), fontsRead)) return true;
      streams.push(xobject);
    }
    if (streams.some(shows)) return true;
  }
  return false;
}

/** The loaded document's pages as mayHoldTags reads them, and its objects. */
function loadedContents(pdf: PDFDocument, pages: PDFPage[]): { pages: PageContent[]; resolve: Resolve } {
  const resolve: Resolve = async (value) => (value instanceof PDFRef ? pdf.context.lookup(value) : value);
  return { pages: pages.map((page) => ({ resources: page.node.Resources(), contents: page.node.get(NAME.Contents) })), resolve };
}

/**
 * Whether the file surely brings no fields and needs no change, told without pdf-lib's full parse of
 * it, which cost as much as the rest of an upload (bench/templates): no signature dictionary (the
 * bytes never mention `/ByteRange`, which is never compressed: inspect-pdf.ts), no /AcroForm and no
 * /Perms in the catalog, and no page that may hold a tag, read through the xref. Unsure (a file the
 * xref reader cannot follow, content past the budget or undecodable) answers false: the full path decides.
 */
async function surelyBringsNothing(bytes: Uint8Array): Promise<boolean> {
  if (mentionsByteRange(bytes)) return false;
  const reading = await readContentsThroughXref(bytes);
  if (!reading || reading.catalog.has(NAME.AcroForm) || reading.catalog.has(NAME.Perms)) return false;
  try {
    return !(await mayHoldTags(reading.pages, reading.resolve));
  } catch {
    return false;
  }
}

/** Hides every tag: blanked in the content stream where it can be, covered in white where not. */
function hideTags(pdf: PDFDocument, pages: PDFPage[], tags: FoundTag[]): void {
  for (const number of new Set(tags.map((t) => t.page))) {
    const page = pages[number - 1];
    const onPage = tags.filter((t) => t.page === number);
    let blanked = 0;
    try {
      blanked = blankTagStrings(pdf, page);
    } catch {
      // A content stream past the budget or undecodable: the cover below hides the tags instead.
    }
    if (blanked >= onPage.length) continue;
    for (const { box } of onPage) page.drawRectangle({ ...box, color: rgb(1, 1, 1), borderWidth: 0 });
  }
}

/**
 * The fields a PDF brings (AcroForm fields, then text tags in page order) and the bytes to store:
 * the same bytes when it brought none. `label` names the file in 422 messages. A file pdf-lib cannot
 * load is returned as it is, for the ingest to refuse with its own reason.
 */
export async function extractDocumentFields(bytes: Uint8Array, label: string): Promise<DocumentFields> {
  if (await surelyBringsNothing(bytes)) return { bytes, fields: [] };
  try {
    return await extractFrom(bytes, label);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // A file pdf-lib cannot walk: stored as it came, for the ingest to refuse with its own reason.
    return { bytes, fields: [] };
  }
}

async function extractFrom(bytes: Uint8Array, label: string): Promise<DocumentFields> {
  // Fastest: the same parse without pausing every 100 objects, which only added wall time.
  const pdf = await loadPdf(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  // Usage rights are no signature on the document and filling voids them: dropped, the file re-saved.
  const droppedRights = dropUsageRights(pdf);
  // A signed file is stored byte for byte: sealing appends after it, so its signatures stay valid
  // (issue 33 › 6), and its form is kept as signed, not imported. A certification allowing form
  // filling (DocMDP P=2/3) makes its form's fields the template's, kept live: sealing fills them in.
  // P=1 the ingest refuses.
  const { certification, approval } = existingSignatures(pdf);
  if (certification === 2 || certification === 3) return { bytes, fields: importForm(pdf, label) };
  if (certification || approval) return { bytes, fields: [] };
  const pages = pdf.getPages();
  const formFields = importForm(pdf, label);
  const hasForm = pdf.catalog.has(NAME.AcroForm);
  let tags: FoundTag[] = [];
  let readable = false;
  try {
    const loaded = loadedContents(pdf, pages);
    readable = await mayHoldTags(loaded.pages, loaded.resolve);
  } catch {
    // Page content past the budget or undecodable: no tags are read from it.
  }
  if (readable) {
    try {
      tags = await findTags(bytes, pdf);
    } catch (error) {
      // A file pdf.js would spend past READING_LIMITS on is refused, the limit named (docs/security.md › Hostile files).
      if (error instanceof ReadingLimitExceeded) throw unprocessable(`${label} cannot be read for text tags: ${error.message}.`);
      // pdf.js could not read text pdf-lib could load: no tags found, the upload goes on.
    }
  }
  const fields = [...formFields, ...tagFields(tags, pages, label)];
  if (!hasForm && tags.length === 0 && !droppedRights) return { bytes, fields };
  if (hasForm) removeForm(pdf);
  if (tags.length) hideTags(pdf, pages, tags);
  return { bytes: await pdf.save(), fields };
}

/**
 * Each PDF's own fields (AcroForm, text tags) join the fields given for it, after them; the bytes
 * stored are the ones with the form removed and the tags hidden. Files over the size limit, and files
 * that are not PDFs, are left for the ingest to refuse. Used on every file a template is created from
 * and every file added or replaced later.
 */
export async function withDocumentFields<T extends { bytes: Uint8Array; label: string; fields?: FieldInput[] }>(
  documents: T[],
): Promise<T[]> {
  const found: T[] = [];
  for (const document of documents) {
    if (document.bytes.byteLength > UPLOAD_LIMITS.fileBytes || !looksLikePdf(document.bytes)) {
      found.push(document);
      continue;
    }
    const { bytes, fields } = await extractDocumentFields(document.bytes, document.label);
    found.push(
      fields.length || bytes !== document.bytes ? { ...document, bytes, fields: [...(document.fields ?? []), ...fields] } : document,
    );
  }
  return found;
}
