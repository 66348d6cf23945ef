// Draws submitted values into their field areas: text fitted to the box, checkmarks, cells, and
// signature/initials/image/stamp pictures scaled to fit without distortion. A picture that cannot be
// drawn (stored before values were checked, or damaged) becomes a visible placeholder, reported to the
// caller for the audit trail, so one value never stops a document from being sealed.
import { rgb, type PDFDocument, type PDFImage, type PDFPage } from 'pdf-lib';
import { imageSizeProblem, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, readImageHeader } from '../../shared/image-header';
import type { MessageKey, MessageValues } from '../../shared/i18n/translator';
import { areaToRect, type Area, type Rect } from './geometry';
import type { DocumentFonts, TextFace } from './fonts';
import { wrapText } from './text-layout';

export type StampValue =
  | { kind: 'text'; text: string }
  | { kind: 'check'; checked: boolean }
  | { kind: 'cells'; text: string }
  | { kind: 'image'; bytes: Uint8Array; format: 'png' | 'jpeg' };

export type FieldStamp = {
  area: Area;
  value: StampValue;
  /** Signatures typed rather than drawn. */
  typed?: boolean;
  /** The field's name, for the audit trail when its value cannot be drawn. */
  field?: string;
  /** What a picture that cannot be drawn shows instead, in its signer's language (default English). */
  placeholder?: string;
};

/** Why, as a catalog sentence: the audit page says it in its own language (issue 31 › 1). */
export type UndrawnReason = { key: MessageKey; values?: MessageValues };

/** A value drawn as a placeholder instead: which field, on which page, and why (in English, and for the audit page when known). */
export type UndrawnValue = { field: string; page: number; reason: string; why?: UndrawnReason };

/** Why an image cannot be drawn, in English (the API's trail) and as the audit page's sentence. */
type ImageProblem = { reason: string; why: UndrawnReason };

/** The text a placeholder shows where a picture could not be drawn, in English (the catalogs' `audit.undrawn.placeholder`). */
export const UNDRAWN_PLACEHOLDER = '[image could not be drawn]';
const PLACEHOLDER_INK = rgb(0.6, 0.1, 0.1);

const INK = rgb(0.05, 0.1, 0.3);
const MAX_FONT_SIZE = 14;
const MIN_FONT_SIZE = 4;
const LINE_HEIGHT = 1.15;

/** The largest size at which `text` fits the box, wrapping if that helps; the smallest size otherwise. */
export function fitText(face: Pick<TextFace, 'width'>, text: string, box: { width: number; height: number }) {
  const start = Math.min(MAX_FONT_SIZE, box.height / LINE_HEIGHT);
  for (let size = start; size >= MIN_FONT_SIZE; size -= 0.5) {
    const single = face.width(text, size) <= box.width && !text.includes('\n');
    const lines = single ? [text] : wrapText(face.width, text, size, box.width);
    if (lines.length * size * LINE_HEIGHT <= box.height + 0.01) return { size, lines };
  }
  return { size: MIN_FONT_SIZE, lines: wrapText(face.width, text, MIN_FONT_SIZE, box.width) };
}

/** Lines fitted to the box, centred vertically; right-to-left text is aligned right. */
function drawText(page: PDFPage, face: TextFace, rect: Rect, color = INK): void {
  const padding = Math.min(2, rect.width * 0.05);
  const box = { width: rect.width - padding * 2, height: rect.height };
  const { size, lines } = fitText(face, face.text, box);
  const blockHeight = lines.length * size * LINE_HEIGHT;
  // Vertically centred in the box; the first baseline sits one ascent below the block's top.
  let baseline = rect.y + (rect.height + blockHeight) / 2 - size * 0.95;
  for (const line of lines) {
    const x = face.rtl ? rect.x + rect.width - padding - face.width(line, size) : rect.x + padding;
    face.draw(page, line, { x, y: baseline, size, color });
    baseline -= size * LINE_HEIGHT;
  }
}

function drawCells(page: PDFPage, face: TextFace, rect: Rect): void {
  const chars = [...face.text];
  if (!chars.length) return;
  const cell = rect.width / chars.length;
  const size = Math.min(MAX_FONT_SIZE, rect.height / LINE_HEIGHT, cell * 1.2);
  chars.forEach((char, i) => {
    const width = face.width(char, size);
    face.draw(page, char, { x: rect.x + i * cell + (cell - width) / 2, y: rect.y + (rect.height - size * 0.7) / 2, size, color: INK });
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

/**
 * Why these bytes cannot be embedded, judged from their header before anything is decoded: a PNG is
 * decoded whole to RGBA by pdf-lib, so one over the pixel budget would exhaust the isolate's memory
 * rather than throw.
 */
function undrawable(value: Extract<StampValue, { kind: 'image' }>): ImageProblem | null {
  const header = readImageHeader(value.bytes);
  if (!header) return { reason: 'not a readable PNG or JPEG image', why: { key: 'audit.undrawn.unreadable' } };
  if (header.format !== value.format)
    return {
      reason: `${header.format.toUpperCase()} data stored as image/${value.format}`,
      why: { key: 'audit.undrawn.wrong_format', values: { found: header.format.toUpperCase(), stored: `image/${value.format}` } },
    };
  const tooLarge = imageSizeProblem(header);
  if (!tooLarge) return null;
  return {
    reason: `the image ${tooLarge.replace(/\.$/, '')}`,
    why: {
      key: 'audit.undrawn.too_large',
      // The size as recorded (no grouping), the limits as numbers the page's language writes.
      values: { width: String(header.width), height: String(header.height), side: MAX_IMAGE_SIDE, pixels: MAX_IMAGE_PIXELS },
    },
  };
}

async function embedImage(pdf: PDFDocument, value: Extract<StampValue, { kind: 'image' }>): Promise<PDFImage | ImageProblem> {
  const problem = undrawable(value);
  if (problem) return problem;
  try {
    return value.format === 'png' ? await pdf.embedPng(value.bytes) : await pdf.embedJpg(value.bytes);
  } catch (error) {
    // The decoder's own words are technical and English in every language.
    const detail = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
    return { reason: `the image could not be decoded (${detail})`, why: { key: 'audit.undrawn.undecodable', values: { detail } } };
  }
}

function drawImage(page: PDFPage, image: PDFImage, rect: Rect): void {
  const scale = Math.min(rect.width / image.width, rect.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height });
}

/** A boxed "[image could not be drawn]", so the sealed page shows that a value stood here. */
function drawPlaceholder(page: PDFPage, face: TextFace, rect: Rect): void {
  page.drawRectangle({
    x: rect.x,
    y: rect.y,
    width: rect.width,
    height: rect.height,
    borderColor: PLACEHOLDER_INK,
    borderWidth: 0.75,
    borderDashArray: [3, 2],
  });
  drawText(page, face, rect, PLACEHOLDER_INK);
}

/**
 * Draws every stamp onto its page. Pages are numbered from 1; an area on a missing page is an error.
 * Returns the pictures drawn as placeholders (once per field and page).
 */
export async function stampFields(pdf: PDFDocument, stamps: readonly FieldStamp[], fonts: DocumentFonts): Promise<UndrawnValue[]> {
  // A picture is embedded once however many areas show it.
  const images = new Map<Uint8Array, PDFImage | ImageProblem>();
  const undrawn: UndrawnValue[] = [];
  for (const stamp of stamps) {
    const page = pdf.getPage(stamp.area.page - 1);
    const rect = areaToRect(stamp.area, page.getSize());
    const { value } = stamp;
    switch (value.kind) {
      case 'text': {
        const face = await fonts.face(value.text.trim(), stamp.typed ? 'oblique' : 'regular');
        if (face.text) drawText(page, face, rect);
        break;
      }
      case 'cells': {
        drawCells(page, await fonts.face(value.text), rect);
        break;
      }
      case 'check':
        if (value.checked) drawCheck(page, rect);
        break;
      case 'image': {
        if (!images.has(value.bytes)) images.set(value.bytes, await embedImage(pdf, value));
        const image = images.get(value.bytes)!;
        if (!('reason' in image)) {
          drawImage(page, image, rect);
          break;
        }
        drawPlaceholder(page, await fonts.face(stamp.placeholder ?? UNDRAWN_PLACEHOLDER), rect);
        const field = stamp.field ?? 'unnamed field';
        if (!undrawn.some((u) => u.field === field && u.page === stamp.area.page))
          undrawn.push({ field, page: stamp.area.page, reason: image.reason, why: image.why });
        break;
      }
    }
  }
  return undrawn;
}
