// Right-to-left text in sealed PDFs: the Unicode Bidirectional Algorithm (UAX #9) for one line without
// explicit embeddings or isolates (values typed into a form, audit trail lines), enough to lay Hebrew and
// Arabic out right to left with numbers and Latin words inside them left to right. PDF content is drawn
// in visual order; the extracted text (ToUnicode) keeps each glyph's own characters.

type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'AN' | 'ES' | 'ET' | 'CS' | 'NSM' | 'WS' | 'ON';

const HEBREW = /[\u0590-\u05ff\u07c0-\u085f\ufb1d-\ufb4f]/;
const ARABIC_LETTER = /[\u0600-\u065f\u066d-\u06ef\u06fa-\u07bf\u0860-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;
const ARABIC_DIGIT = /[\u0660-\u0669\u066b\u066c]/;
const EUROPEAN_DIGIT = /[0-9\u06f0-\u06f9\u2070-\u2079\u2080-\u2089\uff10-\uff19]/;
const MARK = /\p{M}/u;
const SEPARATOR = /[+\-\u2212]/;
const COMMON_SEPARATOR = /[,.:/\u00a0\u060c]/;
const TERMINATOR = /[#$%\u00a2-\u00a5\u00b0\u00b1\u2030-\u2034\u20a0-\u20cf\u066a]/;
const WHITESPACE = /\s/;
const STRONG_LTR = /[\p{L}\p{Nl}]/u;

function bidiClass(char: string): BidiClass {
  if (HEBREW.test(char) && !MARK.test(char)) return 'R';
  if (ARABIC_DIGIT.test(char)) return 'AN';
  if (EUROPEAN_DIGIT.test(char)) return 'EN';
  if (MARK.test(char)) return 'NSM';
  if (ARABIC_LETTER.test(char)) return 'AL';
  if (SEPARATOR.test(char)) return 'ES';
  if (COMMON_SEPARATOR.test(char)) return 'CS';
  if (TERMINATOR.test(char)) return 'ET';
  if (WHITESPACE.test(char)) return 'WS';
  return STRONG_LTR.test(char) ? 'L' : 'ON';
}

/** True when the first strongly directional character of `text` is right-to-left (rules P2, P3). */
export function isRightToLeft(text: string): boolean {
  for (const char of text) {
    const type = bidiClass(char);
    if (type === 'L') return false;
    if (type === 'R' || type === 'AL') return true;
  }
  return false;
}

/** The embedding level of each character (code point) of one line, at paragraph level 0 or 1. */
export function bidiLevels(chars: readonly string[], rtl: boolean): number[] {
  const base = rtl ? 1 : 0;
  const sos: BidiClass = rtl ? 'R' : 'L';
  const types = chars.map(bidiClass);
  // W1: marks take the type of what they mark.
  types.forEach((t, i) => {
    if (t === 'NSM') types[i] = i === 0 ? sos : types[i - 1]!;
  });
  // W2, W3: European digits after Arabic letters are Arabic numbers; Arabic letters are R.
  let strong: BidiClass = sos;
  types.forEach((t, i) => {
    if (t === 'EN' && strong === 'AL') types[i] = 'AN';
    if (t === 'L' || t === 'R' || t === 'AL') strong = t;
    if (t === 'AL') types[i] = 'R';
  });
  // W4: one separator between two numbers of the same kind joins them.
  for (let i = 1; i < types.length - 1; i++) {
    const [before, t, after] = [types[i - 1], types[i], types[i + 1]];
    if (before === 'EN' && after === 'EN' && (t === 'ES' || t === 'CS')) types[i] = 'EN';
    else if (before === 'AN' && after === 'AN' && t === 'CS') types[i] = 'AN';
  }
  // W5: terminators next to European numbers are part of them.
  for (let i = 0; i < types.length; i++) {
    if (types[i] !== 'ET') continue;
    let end = i;
    while (end < types.length && types[end] === 'ET') end++;
    if (types[i - 1] === 'EN' || types[end] === 'EN') types.fill('EN', i, end);
    i = end - 1;
  }
  // W6, W7: other separators are neutral; European numbers after L text are L.
  strong = sos;
  types.forEach((t, i) => {
    if (t === 'ES' || t === 'CS' || t === 'ET') types[i] = 'ON';
    if (t === 'L' || t === 'R') strong = t;
    if (t === 'EN' && strong === 'L') types[i] = 'L';
  });
  // N1, N2: neutrals between two runs of one direction take it (numbers count as R), others the base's.
  const direction = (t: BidiClass | undefined, edge: BidiClass) => (t === undefined ? edge : t === 'L' ? 'L' : 'R');
  for (let i = 0; i < types.length; i++) {
    if (types[i] !== 'WS' && types[i] !== 'ON') continue;
    let end = i;
    while (end < types.length && (types[end] === 'WS' || types[end] === 'ON')) end++;
    const before = direction(types[i - 1], sos);
    const after = direction(types[end], sos);
    types.fill(before === after ? before : sos, i, end);
    i = end - 1;
  }
  // I1, I2, and L1 for trailing whitespace.
  const levels = types.map((t) => {
    if (base === 0) return t === 'R' ? 1 : t === 'AN' || t === 'EN' ? 2 : 0;
    return t === 'L' || t === 'AN' || t === 'EN' ? 2 : 1;
  });
  for (let i = chars.length - 1; i >= 0 && WHITESPACE.test(chars[i]!); i--) levels[i] = base;
  return levels;
}

/** Rule L2: the order in which items with these levels are shown, left to right. */
export function visualOrder(levels: readonly number[]): number[] {
  const order = levels.map((_, i) => i);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; i++) {
      if (levels[order[i]!]! < level) continue;
      let end = i;
      while (end < order.length && levels[order[end]!]! >= level) end++;
      order.splice(i, end - i, ...order.slice(i, end).reverse());
      i = end;
    }
  }
  return order;
}

const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

/** Rule L4: a character shown right to left in its mirrored form (brackets). */
export function mirrored(char: string): string {
  return MIRRORED[char] ?? char;
}
