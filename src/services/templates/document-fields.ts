// Fields a PDF brings with it (spec › Template document; decisions.md › Documents in): its AcroForm
// fields and its text tags become template fields, and the stored PDF keeps neither live widgets nor
// visible tags. One entry point, `extractDocumentFields`, for uploaded PDFs, printed HTML and (later)
// rendered DOCX alike.
import {
  PDFArray,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFRawStream,
  PDFRef,
  PDFSignature,
  PDFTextField,
  rgb,
  type PDFField,
  type PDFPage,
} from 'pdf-lib';
import { ApiError, unprocessable } from '../../lib/errors';
import { isDigitallySigned } from '../documents/pdf';
import { decodeStreamWithin, STRUCTURE_STREAMS_BUDGET } from '../pdf/bounded-decode';
import { loadPdf } from '../pdf/load-pdf';
import { readPageText } from '../pdf/page-text';
import { BadTag, MAX_TAG_ROLES, parseTag, TAG_PATTERN } from './text-tags';
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
      if (!kind) continue;
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
async function findTags(bytes: Uint8Array): Promise<FoundTag[]> {
  const found: FoundTag[] = [];
  const pages = await readPageText(bytes);
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
      if (roles.size > MAX_TAG_ROLES) throw new BadTag(`it names role "${field.role}", past the ${MAX_TAG_ROLES} roles a template can have`);
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

const latin1 = new TextDecoder('latin1');
const STRING_OPERAND = /<([0-9A-Fa-f\s]*)>|\(((?:\\[\s\S]|[^\\()])*)\)/g;

function unescapeLiteral(body: string): string {
  return body.replace(/\\([0-7]{1,3}|[\s\S])/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? (e === '\n' || e === '\r' ? '' : e);
  });
}

function hexOf(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i += 1) hex += text.charCodeAt(i).toString(16).padStart(2, '0');
  return `<${hex}>`;
}

/** Code → text of a two-byte font, from its ToUnicode CMap (bfchar and bfrange, ISO 32000-1 § 9.10.3). */
type CodeMap = { text: Map<number, string>; space?: number };

function readToUnicode(font: PDFDict): CodeMap | undefined {
  const stream = font.lookup(PDFName.of('ToUnicode'));
  if (!(stream instanceof PDFRawStream)) return undefined;
  const cmap = latin1.decode(decodeStreamWithin(stream, 1024 * 1024));
  const text = new Map<number, string>();
  const unicode = (hex: string) => String.fromCharCode(...(hex.match(/.{1,4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, to] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) text.set(parseInt(code, 16), unicode(to));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, to] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const first = parseInt(to, 16);
      for (let c = parseInt(lo, 16), i = 0; c <= parseInt(hi, 16) && i < 65536; c += 1, i += 1) text.set(c, String.fromCharCode(first + i));
    }
  }
  const space = [...text].find(([, t]) => t === ' ')?.[0];
  return { text, space };
}

/** The page's fonts by resource name: a CMap for two-byte fonts, null for one-byte ones. */
function pageFonts(page: PDFPage): Map<string, CodeMap | null> {
  const fonts = new Map<string, CodeMap | null>();
  const dict = page.node.Resources()?.lookupMaybe(NAME.Font, PDFDict);
  for (const [name, ref] of dict?.entries() ?? []) {
    const font = dict!.context.lookup(ref);
    if (!(font instanceof PDFDict)) continue;
    fonts.set(name.decodeText(), font.get(NAME.Subtype) === NAME.Type0 ? (readToUnicode(font) ?? null) : null);
  }
  return fonts;
}

/** One string operand: where it is in the source, its codes, and the text each code shows. */
type Shown = { start: number; end: number; codes: number[]; chars: string[]; wide: boolean; space: number };

const CONTENT_TOKENS = /\/([^\s/<>[\]()]+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f\s]*)>|\(((?:\\[\s\S]|[^\\()])*)\)|\bET\b/g;

/**
 * Blanks tags in the page's content streams: within each text object the shown strings are read as
 * text (one-byte fonts byte for byte, two-byte fonts through their ToUnicode CMap), and the codes of
 * each tag become the font's space, so nothing after them moves and text extraction finds no tag.
 * Returns how many tags it blanked; the rest are covered by the caller.
 */
function blankTagStrings(pdf: PDFDocument, page: PDFPage): number {
  const contents = page.node.get(NAME.Contents);
  const refs = contents instanceof PDFRef ? [contents] : contents instanceof PDFArray ? contents.asArray().filter((r) => r instanceof PDFRef) : [];
  const fonts = pageFonts(page);
  let blanked = 0;
  for (const ref of refs as PDFRef[]) {
    const stream = pdf.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const source = latin1.decode(decodeStreamWithin(stream, STRUCTURE_STREAMS_BUDGET));
    const edits: Shown[] = [];
    let font: CodeMap | null | undefined = null;
    let block: Shown[] = [];
    const flush = () => {
      const chars = block.flatMap((s) => s.chars);
      const owners = block.flatMap((s) => s.chars.map((_, i) => ({ shown: s, i })));
      for (const match of chars.join('').matchAll(TAG_PATTERN)) {
        // One char per code: a tag's text maps back to its codes when no code shows several characters.
        if (chars.join('').length !== chars.length) break;
        for (let k = match.index; k < match.index + match[0].length; k += 1) owners[k].shown.codes[owners[k].i] = owners[k].shown.space;
        blanked += 1;
        for (const s of new Set(owners.slice(match.index, match.index + match[0].length).map((o) => o.shown))) if (!edits.includes(s)) edits.push(s);
      }
      block = [];
    };
    for (const token of source.matchAll(CONTENT_TOKENS)) {
      const [whole, fontName, hex, literal] = token;
      if (whole === 'ET') flush();
      else if (fontName !== undefined) font = fonts.get(fontName);
      else if (font === undefined) continue; // an unknown font: its text cannot be read
      else {
        const bytes = hex !== undefined ? hexText(hex) : unescapeLiteral(literal ?? '');
        const wide = font !== null;
        const codes: number[] = [];
        if (wide) for (let i = 0; i + 1 < bytes.length; i += 2) codes.push((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
        else for (let i = 0; i < bytes.length; i += 1) codes.push(bytes.charCodeAt(i));
        const chars = codes.map((c) => (wide ? (font!.text.get(c) ?? '\uFFFD') : String.fromCharCode(c)));
        const space = wide ? font!.space : 0x20;
        if (space === undefined) continue;
        block.push({ start: token.index, end: token.index + whole.length, codes, chars, wide, space });
      }
    }
    flush();
    if (edits.length === 0) continue;
    edits.sort((a, b) => b.start - a.start);
    let rewritten = source;
    for (const e of edits) {
      const hexCodes = e.codes.map((c) => c.toString(16).padStart(e.wide ? 4 : 2, '0')).join('');
      rewritten = `${rewritten.slice(0, e.start)}<${hexCodes}>${rewritten.slice(e.end)}`;
    }
    pdf.context.assign(ref, pdf.context.flateStream(Uint8Array.from(rewritten, (c) => c.charCodeAt(0))));
  }
  return blanked;
}

function hexText(hex: string): string {
  const digits = hex.replace(/\s/g, '');
  const padded = digits.length % 2 ? `${digits}0` : digits;
  let text = '';
  for (let i = 0; i < padded.length; i += 2) text += String.fromCharCode(parseInt(padded.slice(i, i + 2), 16));
  return text;
}

/** Whether a resource dictionary names a two-byte (Type0) font, whose text the bytes do not show. */
function hasTwoByteFont(resources: PDFDict | undefined): boolean {
  const fonts = resources?.lookupMaybe(NAME.Font, PDFDict);
  return (fonts?.values() ?? []).some((ref) => {
    const font = resources!.context.lookup(ref);
    return font instanceof PDFDict && font.get(NAME.Subtype) === NAME.Type0;
  });
}

const TAG_OPENING = /\{\{|7b\s*7b/i;

/**
 * Whether the file may hold a tag, read cheaply with pdf-lib before pdf.js parses it all: a page's (or
 * its form XObjects') content shows `{{` as text or hex, or uses a two-byte font, whose text only a
 * full reading can tell. Content past the decoding budget is not read for tags.
 */
function mayHoldTags(pdf: PDFDocument, pages: PDFPage[]): boolean {
  let budget = STRUCTURE_STREAMS_BUDGET;
  const shows = (stream: unknown): boolean => {
    if (!(stream instanceof PDFRawStream)) return false;
    const data = decodeStreamWithin(stream, budget);
    budget -= data.length;
    return TAG_OPENING.test(latin1.decode(data));
  };
  for (const page of pages) {
    const resources = page.node.Resources();
    if (hasTwoByteFont(resources)) return true;
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => pdf.context.lookup(r)) : [contents];
    const xobjects = resources?.lookupMaybe(NAME.XObject, PDFDict);
    for (const ref of xobjects?.values() ?? []) {
      const xobject = pdf.context.lookup(ref);
      if (!(xobject instanceof PDFRawStream) || xobject.dict.get(NAME.Subtype) !== NAME.Form) continue;
      if (hasTwoByteFont(xobject.dict.lookupMaybe(PDFName.of('Resources'), PDFDict))) return true;
      streams.push(xobject);
    }
    if (streams.some(shows)) return true;
  }
  return false;
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
  try {
    return await extractFrom(bytes, label);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // A file pdf-lib cannot walk: stored as it came, for the ingest to refuse with its own reason.
    return { bytes, fields: [] };
  }
}

async function extractFrom(bytes: Uint8Array, label: string): Promise<DocumentFields> {
  const pdf = await loadPdf(bytes, { updateMetadata: false });
  // A signed file is refused by the ingest; changing it here would hide the signature it carries.
  if (isDigitallySigned(pdf)) return { bytes, fields: [] };
  const pages = pdf.getPages();
  const formFields = importForm(pdf, label);
  const hasForm = pdf.catalog.has(NAME.AcroForm);
  let tags: FoundTag[] = [];
  let readable = false;
  try {
    readable = mayHoldTags(pdf, pages);
  } catch {
    // Page content past the budget or undecodable: no tags are read from it.
  }
  if (readable) {
    try {
      tags = await findTags(bytes);
    } catch {
      // pdf.js could not read text pdf-lib could load: no tags found, the upload goes on.
    }
  }
  const fields = [...formFields, ...tagFields(tags, pages, label)];
  if (!hasForm && tags.length === 0) return { bytes, fields };
  if (hasForm) removeForm(pdf);
  if (tags.length) hideTags(pdf, pages, tags);
  return { bytes: await pdf.save(), fields };
}
