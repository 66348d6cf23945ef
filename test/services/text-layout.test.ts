import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DocumentFonts } from '../../src/services/pdf/fonts';
import { textWidth, wrapText } from '../../src/services/pdf/text-layout';

/** The one font and text of a string drawn in a single run. */
async function singleRun(value: string) {
  const face = await new DocumentFonts(await PDFDocument.create()).face(value);
  const runs = face.runs(face.text);
  expect(runs).toHaveLength(1);
  return { face, ...runs[0]! };
}

describe('textWidth', () => {
  it('measures unshaped Unicode text exactly as pdf-lib’s layout does', async () => {
    const { font, text } = await singleRun('Zoë Łukasiewicz-Ørsted, Ωμέγα Жанна');
    expect(font.name).toContain('DejaVu');
    expect(textWidth(font, text, 11)).toBeCloseTo(font.widthOfTextAtSize(text, 11), 6);
  });

  it('measures text that needs shaping with the layout engine', async () => {
    const { font, text } = await singleRun('Zoë with a combining mark: e\u0301');
    expect(textWidth(font, text, 9)).toBeCloseTo(font.widthOfTextAtSize(text, 9), 6);
  });

  it('wraps at spaces within the width', async () => {
    const { face, font } = await singleRun('Łukasz Łukasiewicz Łukasiewicz Łukasiewicz');
    const lines = wrapText(face.width, face.text, 10, 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(120);
  });
});
