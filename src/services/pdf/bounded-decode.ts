// Decodes a PDF stream with a ceiling on what it may expand to. Deflate reaches 1032:1, so a 20 KB
// object stream can claim 20 MB and a 20 MB upload 20 GB. pdf-lib's decoders (pdf.js's, ISO 32000-1
// § 7.4) stay in use wherever they cannot pass the ceiling; only its Flate decoder, which inflates a
// whole deflate block at once however large, is replaced for the streams that could.
import { inflateSync } from 'node:zlib';
import { Inflate } from 'fflate';
import { concatBytes } from '../../lib/bytes';
import { decodePDFRawStream, PDFArray, PDFName, PDFRawStream, type PDFContext, type PDFObject } from 'pdf-lib';

/**
 * What one file's object and xref streams may expand to in all (ISO 32000-1 § 7.5.7, § 7.5.8). Objects
 * parsed from 32 MB of decompressed syntax already fill most of a Worker's 128 MB; real files use a
 * small fraction of it.
 */
export const STRUCTURE_STREAMS_BUDGET = 32 * 1024 * 1024;

/** The stream would expand past the bytes it was allowed. */
export class DecodedSizeExceeded extends Error {}

/** The stream's data cannot be decoded (a bad zlib header, a broken deflate block, an unknown filter). */
export class UndecodableStream extends Error {}

const NAME = {
  Filter: PDFName.of('Filter'),
  DecodeParms: PDFName.of('DecodeParms'),
  FlateDecode: PDFName.of('FlateDecode'),
} as const;

/** Deflate's most: a 258-byte match from two 1-bit codes (RFC 1951 § 3.2.5). */
const DEFLATE_MAX_RATIO = 1032;

/** Input is fed to the inflater in slices this size, so one push yields at most ~4 MB. */
const SLICE = 4096;

/**
 * FlateDecode is zlib (RFC 1950): the two-byte header is checked as pdf.js checks it, the deflate data
 * (RFC 1951) inflated in slices, and the Adler-32 trailer ignored, as readers do (some writers omit it).
 */
function inflateInSlices(data: Uint8Array, limit: number): Uint8Array {
  const [cmf, flg] = data;
  if (data.length < 2 || (cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) throw new UndecodableStream();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > limit) throw new DecodedSizeExceeded();
    chunks.push(chunk);
  });
  const deflated = data.subarray(2);
  try {
    for (let at = 0; at < deflated.length || at === 0; at += SLICE)
      inflater.push(deflated.subarray(at, at + SLICE), at + SLICE >= deflated.length);
  } catch (error) {
    if (error instanceof DecodedSizeExceeded) throw error;
    throw new UndecodableStream();
  }
  return concatBytes(chunks);
}

/**
 * FlateDecode through the runtime's zlib (native, several times pdf-lib's JavaScript inflate on page
 * content: bench/templates), stopped by zlib itself past `limit`. Undefined whenever zlib does not
 * finish within the limit or refuses the data — a missing or wrong Adler-32 trailer, a truncated
 * stream, a preset dictionary —: the JavaScript decoders below, which forgive those as readers do,
 * then decide the stream exactly as before (and refuse it past the limit).
 */
function inflateNatively(data: Uint8Array, limit: number): Uint8Array | undefined {
  if (limit < 1) return undefined;
  try {
    const inflated = inflateSync(data, { maxOutputLength: limit });
    return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
  } catch {
    return undefined;
  }
}

/** pdf-lib's decoders are read this much at a time: asking for more allocates that much at once. */
const READ = 64 * 1024;

/**
 * One filter through pdf-lib, read in steps until it ends or passes the limit: its LZW, ASCII85,
 * ASCIIHex and RunLength decoders work in small blocks, and Flate comes here only when it cannot
 * expand past the limit.
 */
function decodeWithPdfLib(
  context: PDFContext,
  filter: PDFObject,
  parms: PDFObject | undefined,
  data: Uint8Array,
  limit: number,
): Uint8Array {
  const dict = context.obj({});
  dict.set(NAME.Filter, filter);
  if (parms) dict.set(NAME.DecodeParms, parms);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const decoder = decodePDFRawStream(PDFRawStream.of(dict, data));
    for (let chunk = decoder.getBytes(READ); chunk.length > 0; chunk = decoder.getBytes(READ)) {
      size += chunk.length;
      if (size > limit) throw new DecodedSizeExceeded();
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    }
  } catch (error) {
    if (error instanceof DecodedSizeExceeded) throw error;
    throw new UndecodableStream();
  }
  return concatBytes(chunks);
}

/**
 * The stream's data with its filters undone, at most `limit` bytes of it, else `DecodedSizeExceeded`.
 * Predictors in /DecodeParms are left to the caller, as pdf-lib's own decoding leaves them.
 */
export function decodeStreamWithin(stream: PDFRawStream, limit: number): Uint8Array {
  const { dict } = stream;
  const filter = dict.lookup(NAME.Filter);
  const filters = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray() : [filter];
  const parms = dict.lookup(NAME.DecodeParms);
  let data = stream.contents;
  filters.forEach((name, i) => {
    const parm = parms instanceof PDFArray ? parms.lookup(i) : parms;
    if (!(name instanceof PDFName)) throw new UndecodableStream();
    const native = name === NAME.FlateDecode ? inflateNatively(data, limit) : undefined;
    if (native) {
      data = native;
      return;
    }
    const mayPassLimit = name === NAME.FlateDecode && (data.length + 1) * DEFLATE_MAX_RATIO > limit;
    data = mayPassLimit ? inflateInSlices(data, limit) : decodeWithPdfLib(dict.context, name, parm, data, limit);
  });
  if (data.length > limit) throw new DecodedSizeExceeded();
  return data;
}
