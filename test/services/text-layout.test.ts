import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DocumentFonts } from '../../src/services/pdf/fonts';
import { textWidth, wrapText } from '../../src/services/pdf/text-layout';

describe('textWidth', () => {
  it('measures unshaped Unicode text exactly as pdf-lib’s layout does', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create());
    const { font, text } = await fonts.forText('Zoë Łukasiewicz-Ørsted, Ωμέγα Жанна');
    expect(font.name).toContain('DejaVu');
    expect(textWidth(font, text, 11)).toBeCloseTo(font.widthOfTextAtSize(text, 11), 6);
  });

  it('measures text that needs shaping with the layout engine', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create());
    const { font, text } = await fonts.forText('Zoë with a combining mark: e\u0301');
    expect(textWidth(font, text, 9)).toBeCloseTo(font.widthOfTextAtSize(text, 9), 6);
  });

  it('wraps at spaces within the width', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create());
    const { font, text } = await fonts.forText('Łukasz Łukasiewicz Łukasiewicz Łukasiewicz');
    const lines = wrapText(font, text, 10, 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(120);
  });
});
