// Fonts for stamped values and the audit trail: DejaVu Sans, embedded as a subset, so names and values
// in any Latin, Greek or Cyrillic script (and many symbols) render instead of failing WinAnsi encoding.
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import regularTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
import boldTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';
import obliqueTtf from 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf';

export type DocumentFonts = { regular: PDFFont; bold: PDFFont; oblique: PDFFont };

export async function embedDocumentFonts(pdf: PDFDocument): Promise<DocumentFonts> {
  pdf.registerFontkit(fontkit);
  const [regular, bold, oblique] = await Promise.all([
    pdf.embedFont(new Uint8Array(regularTtf), { subset: true }),
    pdf.embedFont(new Uint8Array(boldTtf), { subset: true }),
    pdf.embedFont(new Uint8Array(obliqueTtf), { subset: true }),
  ]);
  return { regular, bold, oblique };
}

/** Characters the font has no glyph for are replaced, so one exotic character never breaks a seal. */
export function printable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text.replace(/[\r\t]/g, ' ')) {
    const code = char.codePointAt(0)!;
    out += char === '\n' || supported.has(code) ? char : '?';
  }
  return out;
}
