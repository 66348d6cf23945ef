// Fonts for stamped values and the audit trail. Text the PDF standard fonts can encode (WinAnsi) uses
// Helvetica, which costs nothing to embed; anything else uses DejaVu Sans, embedded as a subset only
// when a document needs it, so names in Greek, Cyrillic, Central European scripts and many symbols
// render instead of failing WinAnsi encoding.
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import type * as Fontkit from '@pdf-lib/fontkit';
import { setTextMeasure } from './text-layout';
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
    if (!font) parsed.set(data, (font = fontkit.create(data)));
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

/** The fonts of one document, embedded on first use. */
export class DocumentFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();

  constructor(private readonly pdf: PDFDocument) {
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

  private async unicode(style: FontStyle, shaped: boolean): Promise<PDFFont> {
    return this.embed(`uni-${style}-${shaped}`, async () => {
      const font = await this.pdf.embedFont(UNICODE_FILES[style], { subset: true, ...(shaped ? {} : { features: PLAIN_FEATURES }) });
      const parsedFont = parsed.get(UNICODE_FILES[style]) as Fontkit.Font | undefined;
      // Unshaped, a string's width is the sum of its glyphs' advances: what pdf-lib's layout-based
      // measure returns, without running the layout engine for every measurement.
      if (!shaped && parsedFont) {
        setTextMeasure(font, (text) => {
          let advance = 0;
          for (const char of text) advance += parsedFont.glyphForCodePoint(char.codePointAt(0)!).advanceWidth;
          return advance / parsedFont.unitsPerEm;
        });
      }
      return font;
    });
  }

  /** A font for `text` and the text as that font can draw it (unknown characters become `?`). */
  async forText(text: string, style: FontStyle = 'regular'): Promise<{ font: PDFFont; text: string }> {
    const clean = text.replace(/[\r\t]/g, ' ');
    const standard = await this.standard(style);
    winAnsi ??= new Set(standard.getCharacterSet());
    if ([...clean].every((c) => c === '\n' || winAnsi!.has(c.codePointAt(0)!))) return { font: standard, text: clean };
    const font = await this.unicode(style, NEEDS_SHAPING.test(clean));
    return { font, text: printable(font, clean) };
  }
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
