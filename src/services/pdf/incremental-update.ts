// Writes the changes made to a loaded PDF as an incremental update (ISO 32000-1 § 7.5.6): the original
// bytes stay untouched and only new or changed objects, a cross-reference section and a trailer are
// appended. Cheaper than re-serialising the whole file, and the original stays a verifiable prefix.
import {
  PDFArray,
  PDFContentStream,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFPageTree,
  PDFRef,
  PDFRawStream,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { lastStartxref, latin1 } from './pdf-syntax';

const encoder = new TextEncoder();
const ascii = (text: string) => encoder.encode(text);

/** What the update must know about the file as loaded; read right after `PDFDocument.load`. */
export type OriginalFile = {
  bytes: Uint8Array;
  /** Objects numbered above this were created after loading. */
  largestObjectNumber: number;
  /** Offset of the last cross-reference section (`startxref`). */
  lastXrefOffset: number;
  /** Whether that section is a cross-reference stream (PDF 1.5) rather than a table. */
  xrefIsStream: boolean;
};

export class UnreadableTrailer extends Error {}

function lastXref(bytes: Uint8Array): { offset: number; isStream: boolean } {
  const offset = lastStartxref(bytes);
  if (offset === undefined) throw new UnreadableTrailer('The PDF has no startxref.');
  if (!Number.isSafeInteger(offset) || offset >= bytes.length) throw new UnreadableTrailer('The PDF startxref points outside the file.');
  let at = offset;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at += 1;
  const head = latin1(bytes.subarray(at, at + 32));
  if (head.startsWith('xref')) return { offset, isStream: false };
  // A cross-reference stream is an object ("12 0 obj"); anything else means the offset is wrong and a
  // reader would have to repair the file, so an update chained to it is not attempted.
  if (/^\d+\s+\d+\s+obj\b/.test(head)) return { offset, isStream: true };
  throw new UnreadableTrailer('The PDF startxref does not point at a cross-reference section.');
}

/**
 * Whether an incremental update can be chained to the file's last cross-reference section: what a
 * signed upload needs, since re-saving it whole would void the signatures it carries.
 */
export function acceptsIncrementalUpdate(bytes: Uint8Array): boolean {
  try {
    lastXref(bytes);
    return true;
  } catch (error) {
    if (error instanceof UnreadableTrailer) return false;
    throw error;
  }
}

/** /Size of the last section's trailer (or cross-reference stream dictionary), which follows `offset`. */
function trailerSize(bytes: Uint8Array, offset: number): number {
  const section = latin1(bytes.subarray(offset));
  const match = /\/Size\s+(\d+)/.exec(section);
  return match ? Number(match[1]) : 0;
}

/**
 * Reads where the original's cross-reference chain ends, and reserves every object number it uses:
 * pdf-lib does not keep object and cross-reference streams in its context, so without this it would
 * hand out their numbers again and the update would shadow objects still stored inside them.
 */
export function describeOriginal(bytes: Uint8Array, pdf: PDFDocument): OriginalFile {
  const { offset, isStream } = lastXref(bytes);
  const { context } = pdf;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, trailerSize(bytes, offset) - 1);
  return { bytes, largestObjectNumber: context.largestObjectNumber, lastXrefOffset: offset, xrefIsStream: isStream };
}

/**
 * The objects an update must rewrite: every object created since loading, the catalog, the page tree
 * (appending a page changes /Kids and /Count), the pages drawn on, the AcroForm, and indirect arrays
 * those hold (/Kids, /Fields, /Annots, /Contents may be indirect; pdf-lib edits them in place). pdf-lib
 * inlines the /Resources it normalises into a page, so a page's own dictionary carries its new fonts.
 */
function changedRefs(pdf: PDFDocument, original: OriginalFile, touchedPages: readonly PDFRef[]): PDFRef[] {
  const { context } = pdf;
  const changed = new Map<number, PDFRef>();
  const add = (ref: PDFRef) => changed.set(ref.objectNumber, ref);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (ref.objectNumber > original.largestObjectNumber || object instanceof PDFPageTree) add(ref);
  }
  const root = context.trailerInfo.Root;
  if (root instanceof PDFRef) add(root);
  const acroForm = pdf.catalog.get(PDFName.of('AcroForm'));
  if (acroForm instanceof PDFRef) add(acroForm);
  for (const page of touchedPages) add(page);

  for (const ref of [...changed.values()]) {
    const object = context.lookup(ref);
    const values: PDFObject[] = object instanceof PDFDict ? object.values() : object instanceof PDFArray ? object.asArray() : [];
    for (const value of values) {
      if (value instanceof PDFRef && context.lookup(value) instanceof PDFArray) add(value);
    }
  }
  return [...changed.values()].sort((a, b) => a.objectNumber - b.objectNumber);
}

/**
 * Content streams pdf-lib drew (a page's stamped values, q/Q wrappers) are a few hundred bytes; pako
 * sets up a fresh 256 KB deflate state for each one, which costs more time than the bytes it saves,
 * so small ones are written as plain text. Larger streams, fonts and images stay compressed.
 */
const PLAIN_CONTENT_BYTES = 16_384;

function forWriting(object: PDFObject): PDFObject {
  if (!(object instanceof PDFContentStream) || object.getUnencodedContentsSize() > PLAIN_CONTENT_BYTES) return object;
  const dict = object.dict.clone();
  dict.delete(PDFName.of('Filter'));
  return PDFRawStream.of(dict, object.getUnencodedContents());
}

/** Groups sorted object numbers into [first, count] runs for a cross-reference section. */
function runs(numbers: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const n of numbers) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === n) last[1] += 1;
    else out.push([n, 1]);
  }
  return out;
}

function trailerEntries(pdf: PDFDocument, original: OriginalFile, size: number): Record<string, PDFObject> {
  const { Root, Info, ID } = pdf.context.trailerInfo;
  return {
    Size: PDFNumber.of(size),
    Prev: PDFNumber.of(original.lastXrefOffset),
    ...(Root ? { Root } : {}),
    ...(Info ? { Info } : {}),
    ...(ID ? { ID } : {}),
  } as Record<string, PDFObject>;
}

function setEntries(dict: PDFDict, entries: Record<string, PDFObject>) {
  for (const [key, value] of Object.entries(entries)) dict.set(PDFName.of(key), value);
}

/**
 * Serialises the update and returns the complete new file (original bytes, then the update) and where
 * the update starts. Objects are written uncompressed at top level, so a signature's /Contents
 * placeholder stays findable as literal text.
 */
export function writeIncrementalUpdate(
  pdf: PDFDocument,
  original: OriginalFile,
  touchedPages: readonly PDFRef[],
): { bytes: Uint8Array; updateStart: number } {
  const { context } = pdf;
  const refs = changedRefs(pdf, original, touchedPages);
  const separator = original.bytes[original.bytes.length - 1] === 0x0a ? 0 : 1;
  const updateStart = original.bytes.length + separator;

  const parts: Uint8Array[] = [];
  const offsets = new Map<number, number>();
  let offset = updateStart;
  const push = (part: Uint8Array) => {
    parts.push(part);
    offset += part.length;
  };
  for (const ref of refs) {
    const object = forWriting(context.lookup(ref)!);
    offsets.set(ref.objectNumber, offset);
    push(ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    const body = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(body, 0);
    push(body);
    push(ascii('\nendobj\n'));
  }

  const xrefOffset = offset;
  const generations = new Map(refs.map((r) => [r.objectNumber, r.generationNumber]));
  if (original.xrefIsStream) {
    // A cross-reference stream continues a file whose last section is one (§ 7.5.8); W [1 4 2]:
    // type 1 (in use), a 4-byte offset, a 2-byte generation.
    const xrefRef = context.nextRef();
    offsets.set(xrefRef.objectNumber, xrefOffset);
    const numbers = [...offsets.keys()].sort((a, b) => a - b);
    const data = new Uint8Array(numbers.length * 7);
    numbers.forEach((n, i) => {
      const at = offsets.get(n)!;
      const generation = generations.get(n) ?? 0;
      data.set([1, at >>> 24, (at >>> 16) & 0xff, (at >>> 8) & 0xff, at & 0xff, generation >> 8, generation & 0xff], i * 7);
    });
    const dict = context.obj({ Type: 'XRef', W: [1, 4, 2], Index: runs(numbers).flat(), Length: data.length });
    setEntries(dict, trailerEntries(pdf, original, context.largestObjectNumber + 1));
    const stream = PDFRawStream.of(dict, data);
    push(ascii(`${xrefRef.objectNumber} 0 obj\n`));
    const body = new Uint8Array(stream.sizeInBytes());
    stream.copyBytesInto(body, 0);
    push(body);
    push(ascii('\nendobj\n'));
  } else {
    let table = 'xref\n';
    for (const [first, count] of runs([...offsets.keys()])) {
      table += `${first} ${count}\n`;
      for (let n = first; n < first + count; n += 1) {
        table += `${String(offsets.get(n)).padStart(10, '0')} ${String(generations.get(n)).padStart(5, '0')} n\r\n`;
      }
    }
    const trailer = context.obj({});
    setEntries(trailer, trailerEntries(pdf, original, context.largestObjectNumber + 1));
    push(ascii(`${table}trailer\n${trailer.toString()}\n`));
  }
  push(ascii(`startxref\n${xrefOffset}\n%%EOF\n`));

  const bytes = new Uint8Array(offset);
  bytes.set(original.bytes, 0);
  if (separator) bytes[original.bytes.length] = 0x0a;
  let at = updateStart;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, updateStart };
}
