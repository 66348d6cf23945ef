// UAX #9 for one line (src/services/pdf/bidi.ts): the order characters are drawn in, left to right.
import { describe, expect, it } from 'vitest';
import { bidiLevels, isRightToLeft, mirrored, visualOrder } from '../../src/services/pdf/bidi';

/** The line as drawn: characters in visual order, brackets at odd levels mirrored. */
function visual(line: string): string {
  const chars = [...line];
  const levels = bidiLevels(chars, isRightToLeft(line));
  return visualOrder(levels)
    .map((i) => (levels[i]! % 2 ? mirrored(chars[i]!) : chars[i]!))
    .join('');
}

describe('bidi reordering', () => {
  it('leaves left-to-right text as it is', () => {
    expect(visual('Zoë Łukasiewicz, 12.50 EUR')).toBe('Zoë Łukasiewicz, 12.50 EUR');
  });

  it('draws Hebrew right to left with its numbers left to right', () => {
    expect(visual('שלום עולם 2026')).toBe('2026 םלוע םולש');
    expect(visual('סכום 12.50')).toBe('12.50 םוכס');
  });

  it('keeps Arabic-Indic numbers left to right inside Arabic', () => {
    expect(visual('العدد ١٢٣')).toBe('١٢٣ ددعلا');
  });

  it('mirrors brackets around Latin text in a right-to-left line', () => {
    expect(visual('עברית (Hebrew, he)')).toBe('(Hebrew, he) תירבע');
  });

  it('reverses only the Hebrew words inside a left-to-right line', () => {
    expect(visual('Name: דוד כהן.')).toBe('Name: ןהכ דוד.');
  });
});
