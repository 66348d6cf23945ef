// DOCX templates (spec › Template document: `.docx` with `[[variable]]` and `[[if:variable]]…[[else]]…[[end]]`):
// a bounded unzip, docxtemplater configured for that syntax, and the variables a document references.
import type Docxtemplater from 'docxtemplater';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { UnusableDocument } from '../pdf/pdf-file';
import { concatBytes } from '../../lib/bytes';

const MB = 1024 * 1024;

/**
 * A DOCX is held unzipped, compiled by docxtemplater, re-zipped filled, unzipped again by mammoth and
 * printed as HTML with its images as base64: several copies of each part are alive at once, so these
 * keep the sum inside a Worker's 128 MB (docs/security.md › Hostile files).
 */
export const DOCX_LIMITS = {
  /** Every entry of the archive, decompressed, together (a zip bomb stops here). */
  unzippedBytes: 32 * MB,
  entries: 2000,
  /** One XML part: docxtemplater and mammoth hold it parsed in memory several times over. */
  xmlBytes: 16 * MB,
  /** One other part (an image, an embedded font): it reaches the printed HTML as base64, a third larger. */
  partBytes: 10 * MB,
} as const;

export type DocxFiles = Record<string, Uint8Array>;

export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Compressed bytes handed to the inflater at once: deflate's 1032:1 makes that at most ~4 MB out. */
const UNZIP_SLICE = 4096;

/** Only the parts docxHeaderFooter reads. */
export const HEADER_FOOTER_PARTS = /^word\/(header|footer)\d*\.xml$/;

/**
 * Unzips a DOCX counting the bytes actually inflated, not the sizes the archive declares (which a zip
 * bomb lies about): one entry at a time, each within its part limit and all within `unzippedBytes`, else
 * the file is refused naming the limit. `only` keeps just the entries it names (the others are never
 * inflated); without it the archive must be a DOCX.
 */
export function unzipDocx(bytes: Uint8Array, only?: RegExp): DocxFiles {
  if (!looksLikeZip(bytes)) throw new UnusableDocument('is not a DOCX file (a DOCX is a zip archive)');
  const files: DocxFiles = {};
  let total = 0;
  let entries = 0;
  let failure: string | undefined;
  const unzip = new Unzip((file) => {
    if (++entries > DOCX_LIMITS.entries)
      throw new UnusableDocument((failure ??= `has more than ${DOCX_LIMITS.entries} entries in its archive`));
    if (only && !only.test(file.name)) return;
    let parts: Uint8Array[] = [];
    const xml = /\.(xml|rels)$/i.test(file.name);
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (error) {
        failure ??= 'is a damaged zip archive';
        return;
      }
      total += chunk.byteLength;
      size += chunk.byteLength;
      // fflate turns a throw from here into an error for the next chunk, so the reason is kept aside.
      if (xml && size > DOCX_LIMITS.xmlBytes) {
        throw new UnusableDocument((failure ??= `has an XML part (${file.name}) over ${DOCX_LIMITS.xmlBytes / MB} MB`));
      }
      if (!xml && size > DOCX_LIMITS.partBytes) {
        throw new UnusableDocument(
          (failure ??= `has a part (${file.name}) that expands past ${DOCX_LIMITS.partBytes / MB} MB, the limit for one image or other part of a DOCX`),
        );
      }
      if (total > DOCX_LIMITS.unzippedBytes)
        throw new UnusableDocument((failure ??= `expands to more than ${DOCX_LIMITS.unzippedBytes / MB} MB when unzipped`));
      parts.push(chunk);
      if (final) {
        files[file.name] = concatBytes(parts);
        parts = [];
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    // In slices: fflate inflates all of one push at once, so a whole archive pushed together would
    // inflate a bomb's entry whole before any limit is looked at. Reading stops at the first failure.
    for (let at = 0; at < bytes.length && !failure; at += UNZIP_SLICE)
      unzip.push(bytes.subarray(at, at + UNZIP_SLICE), at + UNZIP_SLICE >= bytes.length);
  } catch {
    throw new UnusableDocument(failure ?? 'is a damaged zip archive');
  }
  if (failure) throw new UnusableDocument(failure);
  if (only) return files;
  if (!files['word/document.xml'] || !files['[Content_Types].xml'])
    throw new UnusableDocument('is a zip archive but not a DOCX file (it has no word/document.xml)');
  return files;
}

/** A value looked up by name; undefined when the submission has none. */
export type VariableValues = Record<string, string | number | boolean | null | undefined>;

const IF = 'if:';
const END = 'end';
const ELSE = 'else';

/**
 * docxtemplater's loop module with our syntax: `[[if:x]]` opens a section shown when x is truthy,
 * `[[end]]` closes the innermost one (docxtemplater closes any section with an empty end tag).
 * `[[else]]` is rewritten by `elseModule` before pairing.
 */
function conditionModule(createLoopModule: () => unknown) {
  const loop = createLoopModule() as { prefix: Record<string, unknown> };
  loop.prefix = { start: IF, end: END, inverted: `${IF}!`, dash: /^-([^\s]+)\s(.+)/ };
  return loop;
}

type Part = { type: string; value?: string; module?: string; location?: string; inverted?: boolean; tag?: string; raw?: string };

/**
 * `[[else]]` becomes the end of its `[[if:x]]` followed by an `[[if:!x]]` at the same place, so the
 * loop module pairs two ordinary sections. Runs on the flat parse, before sections are paired.
 */
const elseModule = {
  name: 'ElseModule',
  matchers: () => [[ELSE, 'ElseModule', { location: 'else' }]],
  postparse(parsed: Part[]) {
    const open: string[] = [];
    const out: Part[] = [];
    for (const part of parsed) {
      if (part.type === 'placeholder' && part.module === 'loop') {
        if (part.location === 'start') open.push(part.value ?? '');
        else if (part.location === 'end') open.pop();
      }
      if (part.type === 'placeholder' && part.module === 'ElseModule') {
        const name = open.pop();
        if (name === undefined) throw new UnusableDocument('has an [[else]] outside any [[if:…]] block');
        out.push({ ...part, module: 'loop', location: 'end', value: '' });
        out.push({ ...part, module: 'loop', location: 'start', value: name, inverted: true });
        open.push(name);
        continue;
      }
      out.push(part);
    }
    return out;
  },
};

/** The variable a tag names: `[[ name ]]` and `[[name]]` are the same; a leading `!` is a negation. */
function variableName(tag: string): string {
  return tag.trim().replace(/^!/, '').trim();
}

/**
 * Compiles a DOCX with our syntax; an unusable template is an UnusableDocument naming the problem.
 * docxtemplater and PizZip are imported here, on the first DOCX, not with this module: evaluating them
 * (and the XML parser they bring) is work every new isolate would otherwise pay before its first
 * request (decisions.md › Cold start).
 */
async function compile(files: DocxFiles, nullGetter: (part: Part) => unknown): Promise<Docxtemplater> {
  const [
    { default: Docxtemplater },
    { default: fileTypeConfigs },
    { default: moduleWrapper },
    { default: createLoopModule },
    { default: PizZip },
  ] = await Promise.all([
    import('docxtemplater'),
    import('docxtemplater/js/file-type-config.js'),
    import('docxtemplater/js/module-wrapper.js'),
    import('docxtemplater/js/modules/loop.js'),
    import('pizzip'),
  ]);
  const zip = new PizZip();
  for (const [name, data] of Object.entries(files)) zip.file(name, data);
  try {
    return new Docxtemplater(zip, {
      delimiters: { start: '[[', end: ']]' },
      paragraphLoop: true,
      linebreaks: true,
      // The loop module replaced by ours (docxtemplater refuses a second LoopModule); [[else]] is
      // rewritten before the loop module pairs sections, so it comes first.
      fileTypeConfig: {
        ...fileTypeConfigs.docx(),
        baseModules: [
          () => moduleWrapper(elseModule),
          () => conditionModule(createLoopModule),
          ...fileTypeConfigs.docx().baseModules.slice(1),
        ],
      },
      parser: (tag: string) => ({
        get: (scope: Record<string, unknown>) => {
          if (tag === '.') return scope;
          return scope[variableName(tag)];
        },
      }),
      nullGetter: nullGetter as never,
    });
  } catch (error) {
    throw new UnusableDocument(`has template tags docxtemplater cannot read: ${describeTemplateError(error)}`);
  }
}

function describeTemplateError(error: unknown): string {
  if (error instanceof UnusableDocument) return error.message;
  const errors = (error as { properties?: { errors?: { properties?: { explanation?: string } }[] } }).properties?.errors;
  const sentences = (errors ?? []).map((e) => e.properties?.explanation).filter(Boolean);
  return sentences.length ? sentences.slice(0, 5).join('; ') : (error as Error).message;
}

/** Every variable the document (body, headers, footers) names, sorted, built-ins included. */
export async function docxVariables(files: DocxFiles): Promise<string[]> {
  const doc = await compile(files, () => '');
  const found = new Set<string>();
  const walk = (tags: Record<string, unknown>) => {
    for (const [tag, inner] of Object.entries(tags)) {
      found.add(variableName(tag));
      if (inner && typeof inner === 'object') walk(inner as Record<string, unknown>);
    }
  };
  // getTags exists since docxtemplater 3.40 but is missing from its type declarations.
  const all = (doc as unknown as { getTags(): unknown }).getTags() as {
    document?: { tags: Record<string, unknown> };
    headers: { tags: Record<string, unknown> }[];
    footers: { tags: Record<string, unknown> }[];
  };
  if (all.document) walk(all.document.tags);
  for (const part of [...all.headers, ...all.footers]) walk(part.tags);
  return [...found].sort();
}

/**
 * Fills the DOCX. `values` missing a variable leave it as its `[[name]]` text (the template's own
 * rendering, on which fields are placed); a condition without a value is false.
 */
export async function fillDocx(files: DocxFiles, values: VariableValues): Promise<Uint8Array> {
  const doc = await compile(files, (part) => (part.module === 'loop' ? false : `[[${part.value ?? ''}]]`));
  try {
    doc.render(values);
  } catch (error) {
    throw new UnusableDocument(`could not be filled in: ${describeTemplateError(error)}`);
  }
  return doc.getZip().generate({ type: 'uint8array' }) as Uint8Array;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Where `<w:p ` or `<w:p>` opens a paragraph, from `from` on; -1 when none. */
function paragraphStart(xml: string, from: number): number {
  for (let at = xml.indexOf('<w:p', from); at !== -1; at = xml.indexOf('<w:p', at + 1)) {
    const next = xml.charCodeAt(at + 4);
    if (next === 0x20 || next === 0x3e) return at;
  }
  return -1;
}

/** Where `<w:t>` or `<w:t …>` opens a text run, from `from` on; -1 when none. */
function runStart(xml: string, from: number): number {
  for (let at = xml.indexOf('<w:t', from); at !== -1; at = xml.indexOf('<w:t', at + 1)) {
    const next = xml.charCodeAt(at + 4);
    if (next === 0x3e || WHITE_SPACE.has(next)) return at;
  }
  return -1;
}

/**
 * The text of each paragraph (`<w:p>` … `</w:p>`, its `<w:t>` runs joined) in one forward pass: a part of
 * 150,000 unclosed `<w:p ` or `<w:t ` costs its length once, where a lazy regex retried from each of them
 * read to the end of the part every time.
 */
export function paragraphTexts(xml: string): string[] {
  const lines: string[] = [];
  for (let open = paragraphStart(xml, 0); open !== -1; ) {
    const close = xml.indexOf('</w:p>', open);
    if (close === -1) break;
    let line = '';
    for (let from = open; ; ) {
      const run = runStart(xml, from);
      if (run === -1 || run > close) break;
      const start = xml.indexOf('>', run);
      if (start === -1 || start > close) break;
      from = start + 1;
      if (xml[start - 1] === '/') continue; // <w:t/> holds no text
      const end = xml.indexOf('<', start);
      if (xml.startsWith('</w:t>', end)) {
        line += xml.slice(start + 1, end);
        from = end + 6;
      }
    }
    lines.push(line);
    open = paragraphStart(xml, close + 6);
  }
  return lines;
}

/**
 * The text of the DOCX's first header and first footer part, as HTML lines for the printed page's
 * header and footer (mammoth drops them). Text only: Word's fields such as PAGE are not evaluated.
 */
export function docxHeaderFooter(files: DocxFiles): { header?: string; footer?: string } {
  const partText = (prefix: string): string | undefined => {
    const name = Object.keys(files)
      .filter((n) => new RegExp(`^word/${prefix}\\d*\\.xml$`).test(n))
      .sort()[0];
    if (!name) return undefined;
    const lines = paragraphTexts(new TextDecoder().decode(files[name])).filter((line) => line.trim() !== '');
    // The XML text is already entity-escaped; decoding the five XML entities then escaping for HTML keeps it exact.
    const decoded = lines.map((l) =>
      l
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&'),
    );
    return decoded.length ? decoded.map((l) => `<div>${escapeHtml(l)}</div>`).join('') : undefined;
  };
  return { header: partText('header'), footer: partText('footer') };
}
