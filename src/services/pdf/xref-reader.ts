// Reads a PDF's page geometry through its cross-reference data, parsing only the objects on the way from
// the trailer to each page (ISO 32000-1 § 7.5.4–7.5.8 and § 7.7.3). pdf-lib's own load parses every
// object in the file; a template upload needs the few dozen that make up the page tree, so a 50-page
// upload costs a fraction of the CPU and a 20 MB one does not parse 20 MB of objects.
//
// This is the fast path for well-formed files only. Anything it does not expect — no startxref, an xref
// offset that does not point at its object, an object that is not well formed, a predictor it does not
// decode, a page without a box — makes it answer `undefined`, and the caller reads the file the forgiving
// way (pdf-lib's full parse, which recovers files whose xref is broken). Values are parsed by pdf-lib's
// own parser; the xref sections are read here, and dictionaries skimmed with `pdf-syntax.ts`.
import { PDFArray, PDFDict, PDFName, PDFNull, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import { isDictSlice, number, XrefIndex, type Slice } from './xref-index';
import { lastStartxref, shortLatin1, UnexpectedSyntax } from './pdf-syntax';
import { DecodedSizeExceeded } from './bounded-decode';

/** A page as its dictionary states it: the crop box (else the media box) and the /Rotate angle. */
export type PageGeometry = { width: number; height: number; rotate: number };

export type XrefReading = { encrypted: boolean; pages: PageGeometry[] };

const MAX_TREE_DEPTH = 64;

/** The keys read from dictionaries that are otherwise only skimmed. */
const CATALOG_KEYS: ReadonlySet<string> = new Set(['/Pages']);
/**
 * The keys read from page-tree nodes: the geometry's and the text-tag check's, kept from the skim that
 * checks each object (XrefIndex `kept`), so no node is skimmed twice.
 */
const PAGE_KEYS: ReadonlySet<string> = new Set([
  '/Type',
  '/Kids',
  '/Parent',
  '/MediaBox',
  '/CropBox',
  '/Rotate',
  '/Resources',
  '/Contents',
]);
/** The keys the text-tag check reads from a page's resources: its fonts (for two-byte ones) and XObjects. */
const RESOURCE_KEYS: ReadonlySet<string> = new Set(['/Font', '/XObject']);
/** The same for a file that names no Type0 font anywhere (`namesNoType0`): its fonts need no reading. */
const XOBJECT_KEYS: ReadonlySet<string> = new Set(['/XObject']);

const NAME = {
  Pages: PDFName.of('Pages'),
  Page: PDFName.of('Page'),
  Root: PDFName.of('Root'),
  Encrypt: PDFName.of('Encrypt'),
  Type: PDFName.of('Type'),
  Kids: PDFName.of('Kids'),
  Parent: PDFName.of('Parent'),
  Resources: PDFName.of('Resources'),
  Contents: PDFName.of('Contents'),
  Font: PDFName.of('Font'),
  XObject: PDFName.of('XObject'),
} as const;

type Inherited = { box?: PDFObject; cropBox?: PDFObject; rotate?: PDFObject };

async function rectangleSize(index: XrefIndex, value: PDFObject | undefined): Promise<{ width: number; height: number }> {
  const box = await index.resolve(value);
  if (!(box instanceof PDFArray) || box.size() !== 4) throw new UnexpectedSyntax();
  const corners: number[] = [];
  for (const n of box.asArray()) corners.push(number(await index.resolve(n)));
  const [llx, lly, urx, ury] = corners;
  return { width: urx - llx, height: ury - lly };
}

/** Depth-first through /Kids, as viewers number pages; boxes and /Rotate inherit (§ 7.7.3.4). */
async function collectPages(
  index: XrefIndex,
  ref: PDFObject | undefined,
  inherited: Inherited,
  seen: Set<number>,
  pages: PageGeometry[],
  depth = 0,
): Promise<void> {
  if (!(ref instanceof PDFRef) || seen.has(ref.objectNumber) || depth > MAX_TREE_DEPTH) throw new UnexpectedSyntax();
  seen.add(ref.objectNumber);
  const node = await index.dictSlices(ref, PAGE_KEYS);
  const here: Inherited = {
    box: valueIn(index, node, '/MediaBox') ?? inherited.box,
    cropBox: valueIn(index, node, '/CropBox') ?? inherited.cropBox,
    rotate: valueIn(index, node, '/Rotate') ?? inherited.rotate,
  };
  const type = valueIn(index, node, '/Type');
  if (type === NAME.Page) {
    const size = await rectangleSize(index, here.cropBox ?? here.box);
    const rotate = here.rotate === undefined ? 0 : number(await index.resolve(here.rotate));
    pages.push({ ...size, rotate });
    return;
  }
  const kids = await index.resolve(valueIn(index, node, '/Kids'));
  if (type !== NAME.Pages || !(kids instanceof PDFArray)) throw new UnexpectedSyntax();
  for (const kid of kids.asArray()) await collectPages(index, kid, here, seen, pages, depth + 1);
}

/** Each file's checked index, built once: an upload's field extraction and its ingest both read through it. */
const indexes = new WeakMap<Uint8Array, Promise<XrefIndex | undefined>>();

/** The xref sections read and every object checked (`checkObjects`), or undefined without a startxref. */
function checkedIndex(bytes: Uint8Array): Promise<XrefIndex | undefined> {
  let index = indexes.get(bytes);
  if (!index) {
    index = (async () => {
      const startxref = lastStartxref(bytes);
      if (startxref === undefined) return undefined;
      const read = new XrefIndex(bytes, PAGE_KEYS);
      read.readSections(startxref);
      await read.checkObjects();
      return read;
    })();
    indexes.set(bytes, index);
  }
  return index;
}

/**
 * Whether the file is encrypted and, when it is not, each page's geometry — or `undefined` when the
 * file is not one this reader can follow, which says nothing about whether the file is usable.
 */
export async function readThroughXref(bytes: Uint8Array): Promise<XrefReading | undefined> {
  try {
    const index = await checkedIndex(bytes);
    if (!index) return undefined;
    if (index.trailers.some((t) => t.has(NAME.Encrypt))) return { encrypted: true, pages: [] };
    const catalog = await index.dictSlices(index.trailers.find((t) => t.has(NAME.Root))?.get(NAME.Root), CATALOG_KEYS);
    const pages: PageGeometry[] = [];
    await collectPages(index, valueIn(index, catalog, '/Pages'), {}, new Set(), pages);
    return { encrypted: false, pages };
  } catch (error) {
    // The full parse decodes every stream this one did, so it would run past the same ceiling.
    if (error instanceof DecodedSizeExceeded) throw error;
    // UnexpectedSyntax, or pdf-lib failing on an object where the xref pointed: the slow path decides.
    return undefined;
  }
}

/** Resolves a value that may be a reference, to the object the file holds for it (undefined if none). */
export type Resolve = (value: PDFObject | undefined) => Promise<PDFObject | undefined>;

/**
 * A page as the text-tag check reads it: its resources (inherited through /Parent: their /XObject, and
 * their /Font unless the file names no Type0 font at all) and its /Contents.
 */
export type PageContent = { resources: PDFDict | undefined; contents: PDFObject | undefined };

/** The catalog and each page's content, read through the xref, with the resolver to read further. */
export type ContentReading = { catalog: PDFDict; pages: PageContent[]; resolve: Resolve };

/** `value` resolved as pdf-lib's lookupMaybe(value, PDFDict) does: a dictionary, undefined, or a throw. */
export async function dictOrNothing(resolve: Resolve, value: PDFObject | undefined): Promise<PDFDict | undefined> {
  const object = await resolve(value);
  if (object === undefined || object === PDFNull) return undefined;
  if (!(object instanceof PDFDict)) throw new UnexpectedSyntax();
  return object;
}

/**
 * Streams as the index parsed them, but only where that is surely what pdf-lib's own load reads: a
 * stream whose /Length, /Filter or /DecodeParms is a reference (resolved by pdf-lib, not by the index's
 * parser) makes the reading unsure.
 */
function checkedStreams(resolve: Resolve): Resolve {
  return async (value) => {
    const object = await resolve(value);
    if (
      object instanceof PDFRawStream &&
      ['Length', 'Filter', 'DecodeParms'].some((key) => object.dict.get(PDFName.of(key)) instanceof PDFRef)
    )
      throw new UnexpectedSyntax();
    return object;
  };
}

/** A page-tree node skimmed for PAGE_KEYS, its values unparsed. */
type PageNode = ReadonlyMap<string, Slice>;

function valueIn(index: XrefIndex, node: ReadonlyMap<string, Slice>, key: string): PDFObject | undefined {
  const slice = node.get(key);
  return slice && index.parseSlice(slice);
}

/**
 * A dictionary written in place whose values are only read, not named (a resources' /Font or /XObject):
 * each distinct value (by its bytes) once. pdf-lib names its one font anew for every line drawn, so a
 * page of such a file lists the same reference dozens of times; parsing each was most of the check.
 */
function distinctValues(index: XrefIndex, slice: Slice): PDFDict {
  const seen = new Set<string>();
  const entries = new Map<PDFName, PDFObject>();
  for (const value of index.dictValues(slice)) {
    const bytes = shortLatin1(value.data, value.start, value.end);
    if (seen.has(bytes)) continue;
    seen.add(bytes);
    // The names are not read (mayHoldTags reads values); each distinct value gets one of its own.
    entries.set(valueName(entries.size), index.parseSlice(value));
  }
  return index.dictOf(entries);
}

const valueNames: PDFName[] = [];

function valueName(n: number): PDFName {
  valueNames[n] ??= PDFName.of(`V${n}`);
  return valueNames[n];
}

/**
 * A page's /Resources as the tag check reads them: its /Font and /XObject, their values each once. A
 * reference (resources shared by pages) is resolved whole, as the index keeps objects once parsed.
 */
async function readResources(index: XrefIndex, resolve: Resolve, slice: Slice, keys: ReadonlySet<string>): Promise<PDFDict | undefined> {
  if (!isDictSlice(slice)) return dictOrNothing(resolve, index.parseSlice(slice));
  const entries = new Map<PDFName, PDFObject>();
  const parts = index.sliceDict(slice, keys);
  for (const [key, name] of [
    ['/Font', NAME.Font],
    ['/XObject', NAME.XObject],
  ] as const) {
    const part = parts.get(key);
    if (part) entries.set(name, isDictSlice(part) ? distinctValues(index, part) : index.parseSlice(part));
  }
  return index.dictOf(entries);
}

/** Whether no object of the file (stream data aside) can name a Type0 font: neither `Type0` nor a `#` escape. */
function namesNoType0(index: XrefIndex): boolean {
  return !index.objectsContain('Type0', '#');
}

/** Resources as pdf-lib's PDFPageLeaf.Resources() finds them: the page's own, else up its /Parent chain. */
async function inheritedResources(
  index: XrefIndex,
  resolve: Resolve,
  page: PageNode,
  keys: ReadonlySet<string>,
): Promise<PDFDict | undefined> {
  let node: PageNode | undefined = page;
  for (let depth = 0; node; depth += 1) {
    if (depth > MAX_TREE_DEPTH) throw new UnexpectedSyntax();
    const resources = node.get('/Resources');
    if (resources) return readResources(index, resolve, resources, keys);
    const parent = valueIn(index, node, '/Parent');
    if (parent === undefined || parent === PDFNull) return undefined;
    node = await index.dictSlices(parent, PAGE_KEYS);
  }
  return undefined;
}

/** The leaves of the page tree in order, as pdf-lib's getPages() finds them; anything else is unsure. */
async function pageNodes(index: XrefIndex, resolve: Resolve, ref: PDFObject | undefined, seen: Set<number>, pages: PageNode[], depth = 0) {
  if (!(ref instanceof PDFRef) || seen.has(ref.objectNumber) || depth > MAX_TREE_DEPTH) throw new UnexpectedSyntax();
  seen.add(ref.objectNumber);
  const node = await index.dictSlices(ref, PAGE_KEYS);
  const type = valueIn(index, node, '/Type');
  if (type === NAME.Page) {
    pages.push(node);
    return;
  }
  const kids = await resolve(valueIn(index, node, '/Kids'));
  if (type !== NAME.Pages || !(kids instanceof PDFArray)) throw new UnexpectedSyntax();
  for (const kid of kids.asArray()) await pageNodes(index, resolve, kid, seen, pages, depth + 1);
}

/**
 * The catalog and every page's resources and content, read through the xref (only the objects on the
 * way), for checks that would otherwise need pdf-lib's full parse of the file. `undefined` whenever this
 * reader is unsure it reads what pdf-lib would: a file it cannot follow, an encrypted one, a stream
 * whose extent or filters are references; the caller then loads the file the full way.
 */
export async function readContentsThroughXref(bytes: Uint8Array): Promise<ContentReading | undefined> {
  try {
    const index = await checkedIndex(bytes);
    if (!index || index.trailers.some((t) => t.has(NAME.Encrypt))) return undefined;
    const resolve = checkedStreams((value) => index.resolve(value));
    const root = index.trailers.find((t) => t.has(NAME.Root))?.get(NAME.Root);
    const catalog = await resolve(root);
    if (!(root instanceof PDFRef) || !(catalog instanceof PDFDict)) return undefined;
    const nodes: PageNode[] = [];
    await pageNodes(index, resolve, catalog.get(NAME.Pages), new Set(), nodes);
    // A two-byte font is /Subtype /Type0 (§ 9.7.1), a name written as `Type0` or with `#` escapes: a file
    // whose objects show neither has none, and its pages' fonts (dozens of entries a page) are not read.
    const keys = namesNoType0(index) ? XOBJECT_KEYS : RESOURCE_KEYS;
    const pages: PageContent[] = [];
    for (const node of nodes) {
      pages.push({ resources: await inheritedResources(index, resolve, node, keys), contents: valueIn(index, node, '/Contents') });
    }
    return { catalog, pages, resolve };
  } catch {
    return undefined;
  }
}
