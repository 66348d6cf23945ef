// Takes text tags out of a page's content streams (document-fields.ts finds them): each tag's character
// codes become the font's space, read through the font's encoding, so the page looks and measures the same.
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFDocument, type PDFPage } from 'pdf-lib';
import { decodeStreamWithin, STRUCTURE_STREAMS_BUDGET } from '../pdf/bounded-decode';
import { TAG_PATTERN } from './text-tags';

const NAME = {
  Contents: PDFName.of('Contents'),
  Font: PDFName.of('Font'),
  Subtype: PDFName.of('Subtype'),
  Type0: PDFName.of('Type0'),
} as const;

export const latin1 = new TextDecoder('latin1');

function unescapeLiteral(body: string): string {
  return body.replace(/\\([0-7]{1,3}|[\s\S])/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? (e === '\n' || e === '\r' ? '' : e);
  });
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
export function blankTagStrings(pdf: PDFDocument, page: PDFPage): number {
  const contents = page.node.get(NAME.Contents);
  const refs =
    contents instanceof PDFRef ? [contents] : contents instanceof PDFArray ? contents.asArray().filter((r) => r instanceof PDFRef) : [];
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
        for (const s of new Set(owners.slice(match.index, match.index + match[0].length).map((o) => o.shown)))
          if (!edits.includes(s)) edits.push(s);
      }
      block = [];
    };
    for (const token of source.matchAll(CONTENT_TOKENS)) {
      const [whole, fontName, hex, literal] = token;
      if (whole === 'ET') flush();
      else if (fontName !== undefined) font = fonts.get(fontName);
      else if (font === undefined)
        continue; // an unknown font: its text cannot be read
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
