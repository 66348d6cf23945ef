// A PDF's cross-reference index (ISO 32000-1 § 7.5.4–7.5.8): where each object lives, read from the
// xref sections the trailer chain names, and the objects themselves on demand — parsed whole by
// pdf-lib's object parser, or skimmed for a few keys (`pdf-syntax.ts`). Any surprise throws
// `UnexpectedSyntax`; `xref-reader.ts` turns that into "read the file the forgiving way".
import { Buffer } from 'node:buffer';
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import { decodeStreamWithin, STRUCTURE_STREAMS_BUDGET } from './bounded-decode';
import { undoPngPredictor } from './png-predictor';
import { Cursor, shortLatin1, UnexpectedSyntax, type Span } from './pdf-syntax';

/** Where an object lives: at a byte offset, or inside an object stream (§ 7.5.7). */
type Location = { offset: number; generation: number } | { stream: number };

type DecodedObjectStream = { data: Uint8Array; offsets: Map<number, number> };

/** A value's bytes, unparsed: in the file, or in a decoded object stream. */
export type Slice = Span & { data: Uint8Array };

function slicesOf(data: Uint8Array, spans: Map<string, Span>): Map<string, Slice> {
  const slices = new Map<string, Slice>();
  for (const [key, span] of spans) slices.set(key, { data, ...span });
  return slices;
}

/** Whether the value is a dictionary written in place (`<<`). */
export function isDictSlice(slice: Slice): boolean {
  return new Cursor(slice.data, slice.start).startsDict();
}

const MAX_SECTIONS = 64;

/** Values up to this many bytes are parsed once per file and text (parseSlice). */
const SHARED_VALUE_BYTES = 48;

const LENGTH_KEY: ReadonlySet<string> = new Set(['/Length']);

const NAME = {
  Type: PDFName.of('Type'),
  XRef: PDFName.of('XRef'),
  ObjStm: PDFName.of('ObjStm'),
  First: PDFName.of('First'),
  N: PDFName.of('N'),
  Prev: PDFName.of('Prev'),
  XRefStm: PDFName.of('XRefStm'),
  W: PDFName.of('W'),
  Index: PDFName.of('Index'),
  Size: PDFName.of('Size'),
  DecodeParms: PDFName.of('DecodeParms'),
  Predictor: PDFName.of('Predictor'),
  Columns: PDFName.of('Columns'),
  Colors: PDFName.of('Colors'),
  BitsPerComponent: PDFName.of('BitsPerComponent'),
} as const;

export function number(value: PDFObject | undefined): number {
  if (!(value instanceof PDFNumber)) throw new UnexpectedSyntax();
  return value.asNumber();
}

/** The rows of an xref stream, its filters already undone: the predictor, if any, undone here. */
function xrefStreamRows(stream: PDFRawStream, decoded: Uint8Array): Uint8Array {
  const parms = stream.dict.get(NAME.DecodeParms);
  if (parms === undefined) return decoded;
  if (!(parms instanceof PDFDict)) throw new UnexpectedSyntax();
  const predictor = parms.get(NAME.Predictor);
  if (predictor === undefined || number(predictor) === 1) return decoded;
  const colors = parms.get(NAME.Colors);
  const bits = parms.get(NAME.BitsPerComponent);
  if (number(predictor) < 10 || (colors && number(colors) !== 1) || (bits && number(bits) !== 8)) throw new UnexpectedSyntax();
  const columns = parms.get(NAME.Columns);
  return undoPngPredictor(decoded, columns ? number(columns) : 1);
}

export class XrefIndex {
  private readonly context = PDFContext.create();
  private readonly locations = new Map<number, Location>();
  private readonly objects = new Map<number, PDFObject>();
  private readonly streams = new Map<number, DecodedObjectStream>();
  private readonly skims = new Map<ReadonlySet<string>, Map<number, ReadonlyMap<string, Slice>>>();
  /** Bytes of object and xref streams decoded so far, within the budget pdf-lib's own load has too. */
  private decodedBytes = 0;
  /** Short values parsed so far, by their text (parseSlice). */
  private readonly values = new Map<string, PDFObject>();
  /** Every listed object's bytes but stream data, as checkObjects passed them: what `objectsContain` searches. */
  private readonly plainBytes: Slice[] = [];
  readonly trailers: PDFDict[] = [];

  /**
   * `kept`: keys whose values checkObjects keeps for every dictionary object it passes (not streams), so
   * `dictSlices(ref, kept)` skims no object a second time: the readers' page-tree keys.
   */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly kept?: ReadonlySet<string>,
  ) {
    this.indirectKeys = kept ? new Set([...kept, ...LENGTH_KEY]) : LENGTH_KEY;
  }

  /** What checkObjects reads from an indirect dictionary in one skim: its stream's /Length and the kept keys. */
  private readonly indirectKeys: ReadonlySet<string>;

  /** Reads the newest section and every older one it points to (§ 7.5.6 incremental updates). */
  readSections(startxref: number): void {
    const seen = new Set<number>();
    let offset: number | undefined = startxref;
    while (offset !== undefined) {
      if (seen.has(offset) || seen.size >= MAX_SECTIONS) throw new UnexpectedSyntax();
      seen.add(offset);
      const trailer = this.readSection(offset);
      this.trailers.push(trailer);
      // A hybrid file's table is completed by an xref stream (§ 7.5.8.4), read before older sections.
      const hybrid = trailer.get(NAME.XRefStm);
      if (hybrid !== undefined) this.readSection(number(hybrid));
      const prev = trailer.get(NAME.Prev);
      offset = prev === undefined ? undefined : number(prev);
    }
  }

  /** Newer sections are read first, so an object keeps the newest location it is given. */
  private locate(objectNumber: number, location: Location): void {
    if (!this.locations.has(objectNumber)) this.locations.set(objectNumber, location);
  }

  private readSection(offset: number): PDFDict {
    const cursor = new Cursor(this.bytes, offset);
    if (cursor.keyword('xref')) return this.readTable(cursor);
    const stream = this.parseObjectAt(offset);
    if (!(stream instanceof PDFRawStream) || stream.dict.get(NAME.Type) !== NAME.XRef) throw new UnexpectedSyntax();
    this.readXrefStream(stream);
    return stream.dict;
  }

  /** A classic table (§ 7.5.4): subsections of `offset generation n|f` lines, then `trailer << … >>`. */
  private readTable(cursor: Cursor): PDFDict {
    for (;;) {
      cursor.skipWhiteSpace();
      if (!cursor.peekDigit()) break;
      const first = cursor.integer();
      const count = cursor.integer();
      for (let i = 0; i < count; i += 1) {
        const offset = cursor.integer();
        const generation = cursor.integer();
        const kind = cursor.byte();
        if (kind === 0x6e /* n */) this.locate(first + i, { offset, generation });
        else if (kind !== 0x66 /* f */) throw new UnexpectedSyntax();
      }
    }
    if (!cursor.keyword('trailer')) throw new UnexpectedSyntax();
    cursor.skipWhiteSpace();
    const trailer = this.parse(this.bytes, cursor.at);
    if (!(trailer instanceof PDFDict)) throw new UnexpectedSyntax();
    return trailer;
  }

  /** An xref stream (§ 7.5.8): rows of W-byte fields over the subsections of /Index. */
  private readXrefStream(stream: PDFRawStream): void {
    const dict = stream.dict;
    const widths = dict.get(NAME.W);
    if (!(widths instanceof PDFArray) || widths.size() !== 3) throw new UnexpectedSyntax();
    const [typeWidth, fieldWidth, thirdWidth] = widths.asArray().map(number);
    const rowWidth = typeWidth + fieldWidth + thirdWidth;
    // Rows must take bytes, or a declared count of billions would be read from no data at all.
    if (![typeWidth, fieldWidth, thirdWidth].every((w) => Number.isInteger(w) && w >= 0) || rowWidth === 0) throw new UnexpectedSyntax();
    const index = dict.get(NAME.Index);
    const ranges = index instanceof PDFArray ? index.asArray().map(number) : [0, number(dict.get(NAME.Size))];
    const data = xrefStreamRows(stream, this.decode(stream));
    let at = 0;
    const field = (width: number): number => {
      let value = 0;
      for (let i = 0; i < width; i += 1) value = value * 256 + data[at + i];
      at += width;
      return value;
    };
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      for (let i = 0; i < ranges[r + 1]; i += 1) {
        if (at + rowWidth > data.length) throw new UnexpectedSyntax();
        const type = typeWidth === 0 ? 1 : field(typeWidth);
        const second = field(fieldWidth);
        const third = field(thirdWidth);
        if (type === 1) this.locate(ranges[r] + i, { offset: second, generation: third });
        else if (type === 2) this.locate(ranges[r] + i, { stream: second });
      }
    }
  }

  /**
   * Every object the xref lists starts where it says and is well formed, as the full parse insists
   * (`throwOnInvalidObject`): what is accepted here, sealing can load later. Objects are skimmed, not
   * built; stream data is skipped by its /Length. A file edited by hand, its offsets moved, fails here.
   */
  async checkObjects(): Promise<void> {
    const objectStreams = new Set<number>();
    for (const [objectNumber, location] of this.locations) {
      if ('stream' in location) objectStreams.add(location.stream);
      else
        await this.skipIndirectObject(
          new Cursor(this.bytes, this.objectBodyAt(location.offset, objectNumber, location.generation)),
          objectNumber,
        );
    }
    const kept = this.kept && this.skimsFor(this.kept);
    for (const streamNumber of objectStreams) {
      const { data, offsets } = await this.objectStream(streamNumber);
      for (const [objectNumber, at] of offsets) {
        const cursor = new Cursor(data, at);
        // Kept only where the xref places the object: an older copy in a stream an update superseded is not it.
        const location = this.locations.get(objectNumber);
        const current = location !== undefined && 'stream' in location && location.stream === streamNumber;
        if (kept && current && cursor.startsDict()) kept.set(objectNumber, slicesOf(data, cursor.skimDict(this.kept)));
        else cursor.skipValue();
      }
      this.plainBytes.push({ data, start: 0, end: data.length });
    }
  }

  /** The skims kept for one key set, by object number. */
  private skimsFor(keys: ReadonlySet<string>): Map<number, ReadonlyMap<string, Slice>> {
    let skimmed = this.skims.get(keys);
    if (!skimmed) this.skims.set(keys, (skimmed = new Map()));
    return skimmed;
  }

  /**
   * Whether the bytes of the listed objects, stream data aside (dictionaries, arrays, strings, and the
   * whole of each object stream), contain any of `texts`; after checkObjects. An object the file refers to
   * but the xref does not list is read by no one here (lookup throws), so "no" covers every object read.
   */
  objectsContain(...texts: string[]): boolean {
    return this.plainBytes.some(({ data, start, end }) => {
      const plain = Buffer.from(data.buffer, data.byteOffset + start, end - start).toString('latin1');
      return texts.some((text) => plain.includes(text));
    });
  }

  /** Past `value [stream … endstream] endobj` (§ 7.3.8, § 7.3.10). */
  private async skipIndirectObject(cursor: Cursor, objectNumber: number): Promise<void> {
    const start = cursor.at;
    let spans: Map<string, Span> | undefined;
    if (cursor.startsDict()) spans = cursor.skimDict(this.indirectKeys);
    else cursor.skipValue();
    const length = spans?.get('/Length');
    this.plainBytes.push({ data: cursor.data, start, end: cursor.at });
    if (cursor.keyword('stream')) {
      if (!length) throw new UnexpectedSyntax();
      const bytes = number(await this.resolve(this.parse(cursor.data, length.start, length.end)));
      // The keyword ends with CRLF or LF; the data follows (§ 7.3.8.1).
      if (cursor.data[cursor.at] === 0x0d) cursor.at += 1;
      if (cursor.data[cursor.at] === 0x0a) cursor.at += 1;
      cursor.at += bytes;
      if (!cursor.keyword('endstream')) throw new UnexpectedSyntax();
    } else if (spans && this.kept) {
      this.skimsFor(this.kept).set(objectNumber, slicesOf(cursor.data, spans));
    }
    if (!cursor.keyword('endobj')) throw new UnexpectedSyntax();
  }

  /** Where the object after `N G obj` starts, checking the header names the expected object. */
  private objectBodyAt(offset: number, objectNumber?: number, generation?: number): number {
    const cursor = new Cursor(this.bytes, offset);
    const n = cursor.integer();
    const g = cursor.integer();
    if (!cursor.keyword('obj') || (objectNumber !== undefined && (n !== objectNumber || g !== generation))) throw new UnexpectedSyntax();
    cursor.skipWhiteSpace();
    return cursor.at;
  }

  private parseObjectAt(offset: number): PDFObject {
    return this.parse(this.bytes, this.objectBodyAt(offset));
  }

  private parse(data: Uint8Array, start: number, end = data.length): PDFObject {
    return PDFObjectParser.forBytes(data.subarray(start, end), this.context).parseObject();
  }

  /** A cursor at the start of an object's value: in the file, or in its decoded object stream. */
  private async body(objectNumber: number): Promise<Cursor> {
    const location = this.locations.get(objectNumber);
    if (!location) throw new UnexpectedSyntax();
    if ('offset' in location) return new Cursor(this.bytes, this.objectBodyAt(location.offset, objectNumber, location.generation));
    const { data, offsets } = await this.objectStream(location.stream);
    const at = offsets.get(objectNumber);
    if (at === undefined || at >= data.length) throw new UnexpectedSyntax();
    return new Cursor(data, at);
  }

  async lookup(objectNumber: number): Promise<PDFObject> {
    const cached = this.objects.get(objectNumber);
    if (cached) return cached;
    const { data, at } = await this.body(objectNumber);
    const object = this.parse(data, at);
    this.objects.set(objectNumber, object);
    return object;
  }

  /**
   * The bytes of the values of a few keys of an indirect dictionary that is not a stream (catalogs and
   * page-tree nodes always are, § 7.7.2, § 7.7.3), the rest skimmed over: `parseSlice` parses one,
   * `sliceDict` skims one that is a dictionary itself.
   */
  async dictSlices(ref: PDFObject | undefined, keys: ReadonlySet<string>): Promise<ReadonlyMap<string, Slice>> {
    if (!(ref instanceof PDFRef)) throw new UnexpectedSyntax();
    // Kept per key set: the page geometry and the text-tag check read the same page-tree nodes, which
    // checkObjects skimmed for them already when the set is the index's `kept`.
    const skimmed = this.skimsFor(keys);
    const known = skimmed.get(ref.objectNumber);
    if (known) return known;
    const cursor = await this.body(ref.objectNumber);
    if (!cursor.startsDict()) throw new UnexpectedSyntax();
    const spans = cursor.skimDict(keys);
    if (cursor.keyword('stream')) throw new UnexpectedSyntax();
    const slices = slicesOf(cursor.data, spans);
    skimmed.set(ref.objectNumber, slices);
    return slices;
  }

  /** The values of `keys` in a dictionary written in place, left unparsed. */
  sliceDict(slice: Slice, keys: ReadonlySet<string>): Map<string, Slice> {
    const cursor = new Cursor(slice.data, slice.start);
    if (!cursor.startsDict()) throw new UnexpectedSyntax();
    return slicesOf(slice.data, cursor.skimDict(keys));
  }

  /** The values of a dictionary written in place, in order, left unparsed (their keys not read). */
  dictValues(slice: Slice): Slice[] {
    return new Cursor(slice.data, slice.start).dictValues().map((span) => ({ data: slice.data, ...span }));
  }

  /**
   * The value a slice holds. A short one is parsed once per distinct text and the object shared (every
   * page of a file repeats `/Page` and its `[0 0 612 792]`): what it returns is read, never changed.
   */
  parseSlice(slice: Slice): PDFObject {
    if (slice.end - slice.start > SHARED_VALUE_BYTES) return this.parse(slice.data, slice.start, slice.end);
    const text = shortLatin1(slice.data, slice.start, slice.end);
    let value = this.values.get(text);
    if (!value) {
      value = this.parse(slice.data, slice.start, slice.end);
      this.values.set(text, value);
    }
    return value;
  }

  /** A dictionary of values read here, for the readers that take pdf-lib's objects. */
  dictOf(entries: Map<PDFName, PDFObject>): PDFDict {
    return PDFDict.fromMapWithContext(entries, this.context);
  }

  /**
   * An object stream decoded once, with the offset of each object in it (§ 7.5.7): the header's
   * `number offset` pairs, offsets counted from /First. Only the objects asked for are parsed.
   */
  private async objectStream(streamNumber: number): Promise<DecodedObjectStream> {
    const known = this.streams.get(streamNumber);
    if (known) return known;
    const stream = await this.lookup(streamNumber);
    if (!(stream instanceof PDFRawStream) || stream.dict.get(NAME.Type) !== NAME.ObjStm || stream.dict.has(NAME.DecodeParms))
      throw new UnexpectedSyntax();
    const data = this.decode(stream);
    const first = number(stream.dict.get(NAME.First));
    const count = number(stream.dict.get(NAME.N));
    const offsets = new Map<number, number>();
    const header = new Cursor(data, 0);
    for (let i = 0; i < count; i += 1) {
      const objectNumber = header.integer();
      offsets.set(objectNumber, first + header.integer());
    }
    const decoded = { data, offsets };
    this.streams.set(streamNumber, decoded);
    return decoded;
  }

  private decode(stream: PDFRawStream): Uint8Array {
    const data = decodeStreamWithin(stream, STRUCTURE_STREAMS_BUDGET - this.decodedBytes);
    this.decodedBytes += data.length;
    return data;
  }

  async resolve(value: PDFObject | undefined): Promise<PDFObject | undefined> {
    let current = value;
    for (let hops = 0; current instanceof PDFRef; hops += 1) {
      if (hops > 8) throw new UnexpectedSyntax();
      current = await this.lookup(current.objectNumber);
    }
    return current;
  }
}
