// Draws submitted values into their field areas: text fitted to the box, checkmarks, cells, and
// signature/initials/image/stamp pictures scaled to fit without distortion.
import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { areaToRect, type Area, type Rect } from './geometry';
import type { DocumentFonts } from './fonts';
import { textWidth, wrapText } from './text-layout';

export type StampValue =
  | { kind: 'text'; text: string }
  | { kind: 'check'; checked: boolean }
  | { kind: 'cells'; text: string }
  | { kind: 'image'; bytes: Uint8Array; format: 'png' | 'jpeg' };

export type FieldStamp = { area: Area; value: StampValue; /** Signatures typed rather than drawn. */ typed?: boolean };

const INK = rgb(0.05, 0.1, 0.3);
const MAX_FONT_SIZE = 14;
const MIN_FONT_SIZE = 4;
const LINE_HEIGHT = 1.15;

/** The largest size at which `text` fits the box, wrapping if that helps; the smallest size otherwise. */
export function fitText(font: PDFFont, text: string, box: { width: number; height: number }) {
  const start = Math.min(MAX_FONT_SIZE, box.height / LINE_HEIGHT);
  for (let size = start; size >= MIN_FONT_SIZE; size -= 0.5) {
    const single = textWidth(font, text, size) <= box.width && !text.includes('\n');
    const lines = single ? [text] : wrapText(font, text, size, box.width);
    if (lines.length * size * LINE_HEIGHT <= box.height + 0.01) return { size, lines };
  }
  return { size: MIN_FONT_SIZE, lines: wrapText(font, text, MIN_FONT_SIZE, box.width) };
}

function drawText(page: PDFPage, font: PDFFont, text: string, rect: Rect): void {
  const padding = Math.min(2, rect.width * 0.05);
  const box = { width: rect.width - padding * 2, height: rect.height };
  const { size, lines } = fitText(font, text, box);
  const blockHeight = lines.length * size * LINE_HEIGHT;
  // Vertically centred in the box; the first baseline sits one ascent below the block's top.
  let baseline = rect.y + (rect.height + blockHeight) / 2 - size * 0.95;
  for (const line of lines) {
    page.drawText(line, { x: rect.x + padding, y: baseline, size, font, color: INK });
    baseline -= size * LINE_HEIGHT;
  }
}

function drawCells(page: PDFPage, font: PDFFont, text: string, rect: Rect): void {
  const chars = [...text];
  if (!chars.length) return;
  const cell = rect.width / chars.length;
  const size = Math.min(MAX_FONT_SIZE, rect.height / LINE_HEIGHT, cell * 1.2);
  chars.forEach((char, i) => {
    const width = textWidth(font, char, size);
    page.drawText(char, { x: rect.x + i * cell + (cell - width) / 2, y: rect.y + (rect.height - size * 0.7) / 2, size, font, color: INK });
  });
}

function drawCheck(page: PDFPage, rect: Rect): void {
  // A vector tick, so it needs no glyph and scales with the box.
  const side = Math.min(rect.width, rect.height) * 0.8;
  const x = rect.x + (rect.width - side) / 2;
  const y = rect.y + (rect.height - side) / 2;
  const thickness = Math.max(0.8, side / 8);
  page.drawLine({ start: { x, y: y + side * 0.5 }, end: { x: x + side * 0.38, y: y + side * 0.12 }, thickness, color: INK });
  page.drawLine({ start: { x: x + side * 0.38, y: y + side * 0.12 }, end: { x: x + side, y: y + side * 0.9 }, thickness, color: INK });
}

async function drawImage(pdf: PDFDocument, page: PDFPage, value: Extract<StampValue, { kind: 'image' }>, rect: Rect): Promise<void> {
  const image = value.format === 'png' ? await pdf.embedPng(value.bytes) : await pdf.embedJpg(value.bytes);
  const scale = Math.min(rect.width / image.width, rect.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height });
}

/** Draws every stamp onto its page. Pages are numbered from 1; an area on a missing page is an error. */
export async function stampFields(pdf: PDFDocument, stamps: readonly FieldStamp[], fonts: DocumentFonts): Promise<void> {
  for (const stamp of stamps) {
    const page = pdf.getPage(stamp.area.page - 1);
    const rect = areaToRect(stamp.area, page.getSize());
    const { value } = stamp;
    switch (value.kind) {
      case 'text': {
        const { font, text } = await fonts.forText(value.text.trim(), stamp.typed ? 'oblique' : 'regular');
        if (text) drawText(page, font, text, rect);
        break;
      }
      case 'cells': {
        const { font, text } = await fonts.forText(value.text);
        drawCells(page, font, text, rect);
        break;
      }
      case 'check':
        if (value.checked) drawCheck(page, rect);
        break;
      case 'image':
        await drawImage(pdf, page, value, rect);
        break;
    }
  }
}
