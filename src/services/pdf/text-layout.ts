// Line breaking and text measurement for text drawn into a fixed width (stamped values and the audit trail).
import type { PDFFont } from 'pdf-lib';

/**
 * Widths at size 1, per font and string. Measuring an embedded TrueType font runs fontkit's full
 * OpenType layout; fitting a value tries many sizes and wrap points over the same strings, and width
 * scales linearly with size, so each string is laid out once per document.
 */
const widths = new WeakMap<PDFFont, Map<string, number>>();

/** Cheaper exact measures for some fonts (see fonts.ts: unshaped text is a sum of advance widths). */
const measures = new WeakMap<PDFFont, (text: string) => number>();

export function setTextMeasure(font: PDFFont, measure: (text: string) => number): void {
  measures.set(font, measure);
}

export function textWidth(font: PDFFont, text: string, size: number): number {
  let known = widths.get(font);
  if (!known) widths.set(font, (known = new Map()));
  let unit = known.get(text);
  if (unit === undefined) known.set(text, (unit = measures.get(font)?.(text) ?? font.widthOfTextAtSize(text, 1)));
  return unit * size;
}

/** Measures a string at a size: one font's `textWidth`, or a `TextFace`'s width over its fonts. */
export type Measure = (text: string, size: number) => number;

/** Splits `text` into lines no wider than `width` at `size`, breaking words only when they must. */
export function wrapText(measure: Measure, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (measure(rest, size) > width && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && measure(rest.slice(0, cut), size) > width) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}
