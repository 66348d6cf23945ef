// A line of text cut into runs of one font and one direction, in the order they are drawn (issue 31 › 3).
import type { PDFFont } from 'pdf-lib';
import { bidiLevels, mirrored, visualOrder } from './bidi';

/** A part of a line drawn in one font, in the order pdf-lib takes it (see `TextFace.runs`). */
export type TextRun = { font: PDFFont; text: string };

/** Characters of right-to-left scripts: fontkit lays a run containing one out right to left. */
const RTL_SCRIPT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
/** Characters of no script of their own (spaces, punctuation, digits, marks). */
export const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * A line cut into runs of one font, one embedding level and one script direction, ordered left to right
 * (UAX #9 L2). Each run's text is what pdf-lib is given: fontkit reverses a run holding right-to-left
 * script itself (shaping Arabic on the logical order first), so only the other runs are reversed here.
 */
export function lineRuns(
  line: string,
  rtl: boolean,
  fontFor: (char: string, previous: PDFFont | undefined) => PDFFont,
  laidOut: WeakSet<PDFFont>,
): TextRun[] {
  const chars = [...line];
  if (!chars.length) return [];
  const levels = bidiLevels(chars, rtl);
  const runs: { font: PDFFont; level: number; rtlScript: boolean; chars: string[] }[] = [];
  let script = false;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const last = runs.at(-1);
    const font = fontFor(char, last?.font);
    if (!NO_SCRIPT.test(char)) script = RTL_SCRIPT.test(char);
    if (last && last.font === font && last.level === levels[i] && last.rtlScript === script) last.chars.push(char);
    else runs.push({ font, level: levels[i]!, rtlScript: script, chars: [char] });
  }
  return visualOrder(runs.map((r) => r.level)).map((index) => {
    const run = runs[index]!;
    const odd = run.level % 2 === 1;
    const glyphs = odd ? run.chars.map(mirrored) : run.chars;
    const reversedByFontkit = laidOut.has(run.font) && run.chars.some((c) => RTL_SCRIPT.test(c));
    return { font: run.font, text: (odd === reversedByFontkit ? glyphs : [...glyphs].reverse()).join('') };
  });
}
