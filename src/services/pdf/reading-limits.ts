// What pdf.js may spend reading a PDF's pages, measured with pdf-lib before pdf.js opens the file. pdf.js
// decodes every content stream, form XObject, font and CMap a page uses, whole and without a ceiling, and
// draws a form XObject again each time `Do` names it: a 1 MB upload can hold a page whose content inflates
// to 1 GB, or a form drawn a million times. Each stream is decoded here within the budget (bounded-decode.ts),
// its `Do`s counted through the forms it draws, and a file past a limit is refused with the limit named.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib';
import { DecodedSizeExceeded, decodeStreamWithin, UndecodableStream } from './bounded-decode';

const MB = 1024 * 1024;

export const READING_LIMITS = {
  /**
   * Every stream the pages read need decoded (contents, form XObjects, fonts, CMaps, patterns), each
   * counted once: pdf.js keeps them decoded while the document is open, beside its own parse.
   */
  decodedBytes: 32 * MB,
  /** Content interpreted, a form XObject counted each time it is drawn: what pdf.js's CPU time follows. */
  drawnBytes: 64 * MB,
  /** Form XObjects drawn, forms inside forms included, over the pages read. */
  formDraws: 20_000,
  /** Forms drawn inside forms, this deep at most. */
  formDepth: 32,
  /**
   * pdf.js's `maxImageSize`: no reader here needs pixels (text and path outlines only), so every image
   * larger than one pixel is left undecoded, whatever its declared size.
   */
  imagePixels: 1,
} as const;

/** The file needs more than READING_LIMITS allows; the message is a sentence naming the page and the limit. */
export class ReadingLimitExceeded extends Error {}

const NAME = {
  Contents: PDFName.of('Contents'),
  Resources: PDFName.of('Resources'),
  XObject: PDFName.of('XObject'),
  Subtype: PDFName.of('Subtype'),
  Form: PDFName.of('Form'),
  Parent: PDFName.of('Parent'),
  Image: PDFName.of('Image'),
  Type3: PDFName.of('Type3'),
  CharProcs: PDFName.of('CharProcs'),
  PatternType: PDFName.of('PatternType'),
} as const;

/** Byte classes of § 7.2.2: 0 regular, 1 white space, 2 delimiter. */
const CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[byte] = 1;
for (const byte of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[byte] = 2;
const white = (byte: number | undefined) => byte !== undefined && CLASS[byte] === 1;
const regular = (byte: number | undefined) => byte !== undefined && CLASS[byte] === 0;

/** A name token's bytes with `#xx` escapes undone (ISO 32000-1 § 7.3.5). */
function nameText(data: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i += 1) {
    if (data[i] === 0x23 && i + 2 < to) {
      const code = parseInt(String.fromCharCode(data[i + 1], data[i + 2]), 16);
      if (!Number.isNaN(code)) {
        text += String.fromCharCode(code);
        i += 2;
        continue;
      }
    }
    text += String.fromCharCode(data[i]);
  }
  return text;
}

/**
 * How often each name is the operand of `Do` in a content stream (§ 7.8.2, § 8.8): a linear walk over
 * its tokens, skipping strings, comments and inline image data, so no `Do` hides from the count.
 */
export function countDraws(data: Uint8Array): Map<string, number> {
  const draws = new Map<string, number>();
  let operandName: string | undefined;
  let i = 0;
  const n = data.length;
  while (i < n) {
    const byte = data[i];
    if (white(byte)) {
      i += 1;
    } else if (byte === 0x25) {
      while (i < n && data[i] !== 0x0a && data[i] !== 0x0d) i += 1;
    } else if (byte === 0x28) {
      // A literal string: balanced parentheses, backslash escapes.
      let depth = 0;
      for (; i < n; i += 1) {
        if (data[i] === 0x5c) i += 1;
        else if (data[i] === 0x28) depth += 1;
        else if (data[i] === 0x29 && --depth === 0) break;
      }
      i += 1;
      operandName = undefined;
    } else if (byte === 0x3c && data[i + 1] === 0x3c) {
      i += 2; // a dictionary opens
      operandName = undefined;
    } else if (byte === 0x3c) {
      while (i < n && data[i] !== 0x3e) i += 1;
      i += 1;
      operandName = undefined;
    } else if (byte === 0x2f) {
      const start = (i += 1);
      while (regular(data[i])) i += 1;
      operandName = nameText(data, start, i);
    } else if (!regular(byte)) {
      i += 1; // > [ ] { } and stray delimiters
      operandName = undefined;
    } else {
      const start = i;
      while (regular(data[i])) i += 1;
      const two = i - start === 2;
      if (two && data[start] === 0x44 && data[start + 1] === 0x6f && operandName !== undefined)
        draws.set(operandName, (draws.get(operandName) ?? 0) + 1);
      else if (two && data[start] === 0x49 && data[start + 1] === 0x44) i = skipInlineImage(data, i);
      operandName = undefined;
    }
  }
  return draws;
}

/** After `ID` and one white-space byte comes binary data up to white space, `EI`, then white space or the end (§ 8.9.7). */
function skipInlineImage(data: Uint8Array, from: number): number {
  for (let i = from + 1; i + 2 < data.length; i += 1) {
    if (white(data[i]) && data[i + 1] === 0x45 && data[i + 2] === 0x49 && (i + 3 >= data.length || white(data[i + 3]))) return i + 3;
  }
  return data.length;
}

type FormCost = { bytes: number; draws: number };

/** One measuring pass over a document: the budgets are spent across the pages it reads. */
class ReadingMeasure {
  private decoded = 0;
  private drawn = 0;
  private formDraws = 0;
  private page = 0;
  private readonly seen = new Set<PDFObject>();
  /** Each form's cost by the resources it was measured with: one without its own uses its drawer's (§ 7.8.3). */
  private readonly forms = new Map<PDFRawStream, Map<PDFDict | undefined, FormCost>>();
  private readonly drawing = new Set<PDFRawStream>();

  constructor(private readonly pdf: PDFDocument) {}

  private refuse(what: string): never {
    throw new ReadingLimitExceeded(`page ${this.page} ${what}`);
  }

  /** The stream decoded within what is left of the budget, counted once however often it is used. */
  private decode(stream: PDFRawStream): Uint8Array {
    const left = READING_LIMITS.decodedBytes - this.decoded;
    try {
      const data = decodeStreamWithin(stream, left);
      this.decoded += data.length;
      return data;
    } catch (error) {
      if (error instanceof DecodedSizeExceeded) {
        this.refuse(
          `needs more than ${READING_LIMITS.decodedBytes / MB} MB of decoded streams (its content, form XObjects, fonts and the pages before it), the limit for reading a PDF's text`,
        );
      }
      // pdf.js stops at the same broken data, having decoded less than the budget.
      if (error instanceof UndecodableStream) return new Uint8Array(0);
      throw error;
    }
  }

  /**
   * Streams a resource dictionary reaches (fonts, their files and CMaps, patterns, shadings), decoded
   * once. Content among them, a tiling pattern's cell or a Type3 font's glyphs (§ 8.7.3.1, § 9.6.5),
   * is measured as drawn once with the forms it draws, as pdf.js parses it once for the page.
   */
  private measureResources(resources: PDFDict | undefined): void {
    if (!resources || this.seen.has(resources)) return;
    this.seen.add(resources);
    const pending: PDFObject[] = [];
    for (const [key, value] of resources.entries()) if (key !== NAME.XObject) pending.push(value);
    while (pending.length) {
      const object = pending.pop()!;
      const target = object instanceof PDFRef ? this.pdf.context.lookup(object) : object;
      if (!target || this.seen.has(target)) continue;
      this.seen.add(target);
      if (target instanceof PDFRawStream) {
        const patternType = target.dict.lookup(NAME.PatternType);
        if (patternType instanceof PDFNumber && patternType.asNumber() === 1) {
          this.measureDrawnOnce(target, target.dict.lookupMaybe(NAME.Resources, PDFDict) ?? resources);
          continue;
        }
        if (target.dict.get(NAME.Subtype) !== NAME.Image) this.decode(target);
        for (const [key, value] of target.dict.entries()) if (key !== NAME.Parent) pending.push(value);
      } else if (target instanceof PDFDict) {
        const glyphs = target.get(NAME.Subtype) === NAME.Type3 ? target.lookupMaybe(NAME.CharProcs, PDFDict) : undefined;
        if (glyphs) {
          const fontResources = target.lookupMaybe(NAME.Resources, PDFDict) ?? resources;
          for (const ref of glyphs.values()) {
            const glyph = this.pdf.context.lookup(ref);
            if (!(glyph instanceof PDFRawStream) || this.seen.has(glyph)) continue;
            this.seen.add(glyph);
            this.measureDrawnOnce(glyph, fontResources);
          }
        }
        for (const [key, value] of target.entries()) if (key !== NAME.Parent && key !== NAME.CharProcs) pending.push(value);
      } else if (target instanceof PDFArray) {
        pending.push(...target.asArray());
      }
    }
  }

  /** Content drawn once where its resources are (a pattern cell, a glyph), added to the document's totals. */
  private measureDrawnOnce(stream: PDFRawStream, resources: PDFDict | undefined): void {
    this.measureResources(resources);
    const cost = this.measureContent(this.decode(stream), resources, 1);
    this.checkTotals(cost);
    this.drawn += cost.bytes;
    this.formDraws += cost.draws;
  }

  /** The content's own bytes and draws, then each form it draws: its cost times how often it is drawn. */
  private measureContent(data: Uint8Array, resources: PDFDict | undefined, depth: number): FormCost {
    const cost: FormCost = { bytes: data.length, draws: 0 };
    const xobjects = resources?.lookupMaybe(NAME.XObject, PDFDict);
    for (const [name, count] of countDraws(data)) {
      const xobject = xobjects?.lookup(PDFName.of(name));
      if (!(xobject instanceof PDFRawStream) || xobject.dict.get(NAME.Subtype) !== NAME.Form) continue;
      const form = this.measureForm(xobject, resources, depth + 1);
      cost.bytes += count * form.bytes;
      cost.draws += count * (1 + form.draws);
      this.checkTotals(cost);
    }
    return cost;
  }

  private measureForm(form: PDFRawStream, inherited: PDFDict | undefined, depth: number): FormCost {
    const resources = form.dict.lookupMaybe(NAME.Resources, PDFDict) ?? inherited;
    const known = this.forms.get(form)?.get(resources);
    if (known) return known;
    if (this.drawing.has(form)) this.refuse('draws a form XObject inside itself, which never ends');
    if (depth > READING_LIMITS.formDepth)
      this.refuse(`draws form XObjects inside each other more than ${READING_LIMITS.formDepth} deep, the limit for reading a PDF's text`);
    this.drawing.add(form);
    this.measureResources(resources);
    const cost = this.measureContent(this.decode(form), resources, depth);
    this.drawing.delete(form);
    this.forms.set(form, (this.forms.get(form) ?? new Map<PDFDict | undefined, FormCost>()).set(resources, cost));
    return cost;
  }

  /** Refuses once the document's totals with `cost` added would pass a limit (also checked part way, to stop early). */
  private checkTotals(cost: FormCost): void {
    if (this.drawn + cost.bytes > READING_LIMITS.drawnBytes) {
      this.refuse(
        `draws more than ${READING_LIMITS.drawnBytes / MB} MB of content with the pages before it, counting a form XObject each time it is drawn, the limit for reading a PDF's text`,
      );
    }
    if (this.formDraws + cost.draws > READING_LIMITS.formDraws) {
      this.refuse(
        `draws form XObjects more than ${READING_LIMITS.formDraws.toLocaleString('en-US')} times with the pages before it, counting forms inside forms, the limit for reading a PDF's text`,
      );
    }
  }

  measurePage(index: number): void {
    this.page = index + 1;
    const node = this.pdf.getPage(index).node;
    const resources = node.Resources();
    this.measureResources(resources);
    const contents = node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => this.pdf.context.lookup(ref)) : [contents];
    const parts = streams.filter((s): s is PDFRawStream => s instanceof PDFRawStream).map((s) => this.decode(s));
    // A page's content streams are one stream split between tokens (§ 7.8.2).
    const data = parts.length === 1 ? parts[0] : joinWithSpace(parts);
    const cost = this.measureContent(data, resources, 0);
    this.checkTotals(cost);
    this.drawn += cost.bytes;
    this.formDraws += cost.draws;
  }
}

function joinWithSpace(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length + 1, 0)).fill(0x20);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length + 1;
  }
  return out;
}

/**
 * Refuses (ReadingLimitExceeded) a document whose first `pages` pages would make pdf.js decode or draw
 * past READING_LIMITS. Call it on the pdf-lib document of the same bytes before pdf.js opens them.
 */
export function assertWithinReadingLimits(pdf: PDFDocument, pages: number): void {
  const measure = new ReadingMeasure(pdf);
  for (let index = 0; index < Math.min(pages, pdf.getPageCount()); index += 1) measure.measurePage(index);
}
