// Fonts for stamped values and the audit trail. Text the PDF standard fonts can encode (WinAnsi) uses
// Helvetica, which costs nothing to embed; Greek, Cyrillic, Central European, Hebrew, Arabic and many
// symbols use DejaVu Sans (in the bundle, 2 MB); Chinese, Japanese and Korean use Noto Sans CJK, read
// from the static assets only when a document has such text (16 MB: kept out of the bundle). Each is
// embedded as a subset of the glyphs drawn; right-to-left text is reordered by UAX #9 (bidi.ts).
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type Color, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type * as Fontkit from '@pdf-lib/fontkit';
import { isRightToLeft } from './bidi';
import { lineRuns, NO_SCRIPT, type TextRun } from './text-runs';
import { setTextMeasure, textWidth } from './text-layout';
import regularTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
import boldTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';
import obliqueTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf';

export type FontStyle = 'regular' | 'bold' | 'oblique';

const STANDARD: Record<FontStyle, StandardFonts> = {
  regular: StandardFonts.Helvetica,
  bold: StandardFonts.HelveticaBold,
  oblique: StandardFonts.HelveticaOblique,
};
const UNICODE_FILES: Record<FontStyle, Uint8Array> = {
  regular: new Uint8Array(regularTtf),
  bold: new Uint8Array(boldTtf),
  oblique: new Uint8Array(obliqueTtf),
};

/**
 * fontkit with parsed fonts kept for the isolate's life: parsing a 700 KB TrueType file costs far more
 * than stamping a document, and a parsed font is only read from (each document gets its own subset).
 */
const parsed = new WeakMap<Uint8Array, unknown>();
const cachingFontkit = {
  ...fontkit,
  create(data: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(data, postscriptName);
    let font = parsed.get(data);
    // fontkit copies a Uint8Array it is given (Buffer.from) but wraps an ArrayBuffer: a file that is its
    // buffer whole goes in as that buffer, so the 16 MB CJK font is held once, not twice.
    const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    if (!font) parsed.set(data, (font = fontkit.create((whole ? data.buffer : data) as Uint8Array)));
    return font;
  },
} as typeof fontkit;

let winAnsi: Set<number> | undefined;

/**
 * Scripts whose rendering depends on OpenType shaping (combining marks, Hebrew, Arabic and other
 * joining scripts, Indic and South-East Asian scripts, Hangul jamo, joiners, presentation forms).
 */
const NEEDS_SHAPING =
  // eslint-disable-next-line no-misleading-character-class -- ranges of combining marks and joiners, matched one code point at a time on purpose
  /[\u0300-\u036f\u0483-\u0489\u0591-\u08ff\u0900-\u0fff\u1000-\u109f\u1100-\u11ff\u1780-\u18af\u1ab0-\u1aff\u1dc0-\u1dff\u200c\u200d\u20d0-\u20ff\ufb1d-\ufdff\ufe20-\ufe2f\ufe70-\ufeff]/;

/**
 * Every feature fontkit would apply by default, switched off. pdf-lib draws glyphs at their advance
 * widths and ignores positioning, so for text that needs no shaping (Latin, Greek, Cyrillic, symbols)
 * the full layout only costs time: it runs four times slower than a plain cmap lookup.
 */
const PLAIN_FEATURES = Object.fromEntries(
  [
    'rvrn',
    'ltra',
    'ltrm',
    'frac',
    'numr',
    'dnom',
    'ccmp',
    'locl',
    'rlig',
    'mark',
    'mkmk',
    'calt',
    'clig',
    'liga',
    'rclt',
    'curs',
    'kern',
  ].map((tag) => [tag, false]),
);

/**
 * Where fonts too large for the Worker bundle come from: a file name in, its bytes out (null when it is
 * not there). `assetFonts` reads them from the static assets (public/fonts).
 */
export type FontSource = (file: string) => Promise<Uint8Array | null>;

/** Chinese, Japanese and Korean: Noto Sans CJK JP, cut to the blocks scripts/make-cjk-font.py keeps (16.3 MB). */
const CJK_FILE = 'NotoSansCJKjp-Regular-subset.ttf';

/** What the CJK file has beyond ASCII and Latin-1: a string needs it only for these (scripts/make-cjk-font.py). */
const CJK = /[\u1100-\u11ff\u3000-\u30ff\u3130-\u318f\u31f0-\u31ff\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]/;

/**
 * Font files read from the assets once per isolate: a document needing one again costs no fetch or parse.
 * The bytes are kept, not the read's promise: another request's pending read may not be awaited (Workers
 * refuse I/O on behalf of a different request), so documents sealed before the first read ends each read.
 */
const assetFiles = new Map<string, Uint8Array>();

export function assetFonts(assets: Fetcher | undefined): FontSource | undefined {
  if (!assets) return undefined;
  return async (file) => {
    const kept = assetFiles.get(file);
    if (kept) return kept;
    const res = await assets.fetch(`https://assets.invalid/fonts/${file}`);
    // A failed read is tried again by the next document rather than remembered.
    if (!res.ok) return null;
    const bytes = new Uint8Array(await res.arrayBuffer());
    assetFiles.set(file, bytes);
    return bytes;
  };
}

/**
 * Text of mixed scripts and directions, measured and drawn with the fonts that cover each part. Made
 * by `DocumentFonts.face` for one string; measures and draws that string and any part of it.
 */
export type TextFace = {
  /** The text as it can be drawn: characters no font covers are `?`. */
  text: string;
  /** Whether its first strong character is right to left (Hebrew, Arabic): such lines align right. */
  rtl: boolean;
  width(line: string, size: number): number;
  /** The line's runs left to right on the page, each in one font (UAX #9 reordering). */
  runs(line: string): TextRun[];
  draw(page: PDFPage, line: string, at: { x: number; y: number; size: number; color: Color }): void;
};

/** The fonts of one document, embedded on first use. */
export class DocumentFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();
  /** The CJK font's bytes, read once per document whatever the source does. */
  private cjk: Promise<Uint8Array | null> | undefined;
  /** Fonts laid out by fontkit (not the standard 14), which reverses right-to-left runs itself. */
  private readonly laidOut = new WeakSet<PDFFont>();

  constructor(
    private readonly pdf: PDFDocument,
    private readonly source?: FontSource,
  ) {
    pdf.registerFontkit(cachingFontkit);
  }

  private embed(key: string, load: () => Promise<PDFFont>): Promise<PDFFont> {
    let font = this.embedded.get(key);
    if (!font) this.embedded.set(key, (font = load()));
    return font;
  }

  private async standard(style: FontStyle): Promise<PDFFont> {
    return this.embed(`std-${style}`, () => this.pdf.embedFont(STANDARD[style]));
  }

  private async unicode(file: Uint8Array, key: string, shaped: boolean): Promise<PDFFont> {
    return this.embed(`${key}-${shaped}`, async () => {
      const font = await this.pdf.embedFont(file, {
        subset: true,
        // pdffonts and PDF/A validators recognise a subset by its six-letter tag (ISO 32000-1 9.6.4).
        customName: `${subsetTag()}+${cachingFontkit.create(file).postscriptName}`,
        ...(shaped ? {} : { features: PLAIN_FEATURES }),
      });
      const parsedFont = parsed.get(file) as Fontkit.Font | undefined;
      // Unshaped, a string's width is the sum of its glyphs' advances: what pdf-lib's layout-based
      // measure returns, without running the layout engine for every measurement.
      if (!shaped && parsedFont) {
        setTextMeasure(font, (text) => {
          let advance = 0;
          for (const char of text) advance += parsedFont.glyphForCodePoint(char.codePointAt(0)!).advanceWidth;
          return advance / parsedFont.unitsPerEm;
        });
      }
      this.laidOut.add(font);
      return font;
    });
  }

  /**
   * The font files that can draw a character, best first, for a style: DejaVu Sans in the style, then
   * regular (its oblique has no Arabic), then the CJK font (regular only: one weight keeps it 16 MB).
   */
  private async candidates(style: FontStyle, needCjk: boolean): Promise<{ key: string; file: Uint8Array; font: Fontkit.Font }[]> {
    const files = [{ key: `uni-${style}`, file: UNICODE_FILES[style] }];
    if (style !== 'regular') files.push({ key: 'uni-regular', file: UNICODE_FILES.regular });
    const cjk = needCjk && this.source ? await (this.cjk ??= this.source(CJK_FILE)) : null;
    if (cjk) files.push({ key: 'cjk', file: cjk });
    return files.map((f) => ({ ...f, font: cachingFontkit.create(f.file) as unknown as Fontkit.Font }));
  }

  /**
   * One font for a whole string, for places that take a single font (AcroForm field appearances): the
   * one of `face`'s fonts that draws most of it; what that font lacks prints as `?`.
   */
  async forText(value: string, style: FontStyle = 'regular'): Promise<{ font: PDFFont; text: string }> {
    return singleFont(await this.face(value, style));
  }

  /**
   * The font choice for a string (issue 31 › 3): each character in the first font that has it — the
   * standard Helvetica for WinAnsi text, DejaVu Sans for Greek, Cyrillic, Central European, Hebrew and
   * Arabic (shaped by fontkit's OpenType layout), Noto Sans CJK for Chinese, Japanese and Korean — with
   * spaces and punctuation kept in the font of the text around them. Only the fonts used are embedded.
   */
  async face(value: string, style: FontStyle = 'regular'): Promise<TextFace> {
    const clean = value.replace(/[\r\t]/g, ' ');
    const standard = await this.standard(style);
    winAnsi ??= new Set(standard.getCharacterSet());
    const chars = [...new Set(clean)].filter((c) => c !== '\n');
    const fontOf = new Map<string, PDFFont>();
    // Text Helvetica cannot draw whole goes to DejaVu Sans whole (one typeface within a word), and what
    // DejaVu lacks to the next font that has it.
    if (chars.some((c) => !winAnsi!.has(c.codePointAt(0)!))) {
      const candidates = await this.candidates(
        style,
        chars.some((c) => CJK.test(c) && !dejaVuHas(c)),
      );
      const shaped = NEEDS_SHAPING.test(clean);
      for (const char of chars) {
        const cp = char.codePointAt(0)!;
        const found = candidates.find((c) => c.font.hasGlyphForCodePoint(cp));
        if (found) fontOf.set(char, await this.unicode(found.file, found.key, shaped));
      }
    }
    let text = '';
    for (const char of clean) text += char === '\n' || winAnsi.has(char.codePointAt(0)!) || fontOf.has(char) ? char : '?';
    const rtl = isRightToLeft(text);
    const fontFor = (char: string, previous: PDFFont | undefined) => {
      const own = fontOf.get(char) ?? standard;
      // Spaces and punctuation stay in the font around them when it has them.
      return previous && own !== previous && NO_SCRIPT.test(char) && printable(previous, char) === char ? previous : own;
    };
    const runs = (line: string) => lineRuns(line, rtl, fontFor, this.laidOut);
    // Widths at size 1 per line: fitting a value measures the same lines at many sizes.
    const widths = new Map<string, number>();
    return {
      text,
      rtl,
      runs,
      width(line, size) {
        let unit = widths.get(line);
        if (unit === undefined) widths.set(line, (unit = runs(line).reduce((sum, run) => sum + textWidth(run.font, run.text, 1), 0)));
        return unit * size;
      },
      draw(page, line, { x, y, size, color }) {
        for (const run of runs(line)) {
          page.drawText(run.text, { x, y, size, font: run.font, color });
          x += textWidth(run.font, run.text, size);
        }
      },
    };
  }
}

/** The font of `face` that draws most of its text, and the text as that font can draw it. */
function singleFont(face: TextFace): { font: PDFFont; text: string } {
  const count = new Map<PDFFont, number>();
  for (const line of face.text.split('\n'))
    for (const run of face.runs(line)) count.set(run.font, (count.get(run.font) ?? 0) + [...run.text].length);
  const [font] = [...count].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!font) return { font: face.runs(' ')[0]!.font, text: face.text };
  return { font, text: printable(font, face.text) };
}

let dejaVuChars: Fontkit.Font | undefined;
function dejaVuHas(char: string): boolean {
  dejaVuChars ??= cachingFontkit.create(UNICODE_FILES.regular) as unknown as Fontkit.Font;
  return dejaVuChars.hasGlyphForCodePoint(char.codePointAt(0)!);
}

/** A subset's tag: six capital letters, random so that subsets added by later revisions differ. */
function subsetTag(): string {
  return [...crypto.getRandomValues(new Uint8Array(6))].map((b) => String.fromCharCode(65 + (b % 26))).join('');
}

/** Code points each embedded font can draw, computed once per font rather than per string. */
const characterSets = new WeakMap<PDFFont, Set<number>>();

export function printable(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) characterSets.set(font, (supported = new Set(font.getCharacterSet())));
  let out = '';
  for (const char of text) out += char === '\n' || supported.has(char.codePointAt(0)!) ? char : '?';
  return out;
}
