// Page-image comparison for fidelity tests (Node side of the test run): a page of a PDF drawn by poppler's
// `pdftoppm` as a PNG, compared with a reference PNG kept in test/fixtures/docx/pages/.
// `UPDATE_PAGE_IMAGES=1` writes the fresh image as the reference instead (test/fixtures/docx/README.md).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

export const PAGE_IMAGE_DIR = join(import.meta.dirname, '..', 'fixtures', 'docx', 'pages');

/** 72 dpi: one pixel per PDF point, enough to see a table border or a bullet. */
const DPI = 72;
/** A pixel is ink when darker than this (0 black … 255 white); anti-aliasing greys fall either side. */
const INK_BELOW = 128;

export type GrayImage = { width: number; height: number; pixels: Uint8Array };

export type PageComparison = {
  /** Ink pixels of either image with no ink within one pixel in the other, over all ink pixels of both. */
  differing: number;
  width: number;
  height: number;
  reference: { width: number; height: number };
  /** The reference was (re)written from this image (UPDATE_PAGE_IMAGES=1). */
  updated: boolean;
};

/** Page `page` (from 1) of `pdf` as a PNG (gray, though pdftoppm stores it as RGB). */
export async function pagePng(pdf: Uint8Array, page: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'page-image-'));
  try {
    await writeFile(join(dir, 'document.pdf'), pdf);
    await new Promise<void>((resolve, reject) => {
      execFile(
        'pdftoppm',
        [
          '-f',
          String(page),
          '-l',
          String(page),
          '-r',
          String(DPI),
          '-gray',
          '-png',
          '-singlefile',
          join(dir, 'document.pdf'),
          join(dir, 'page'),
        ],
        { timeout: 30_000 },
        (error, _out, stderr) => (error ? reject(new Error(`pdftoppm failed: ${stderr || error.message}`)) : resolve()),
      );
    });
    return await readFile(join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Bytes per pixel of the 8-bit PNG colour types: gray, RGB, gray + alpha, RGBA (no palettes). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Decodes an 8-bit, non-interlaced PNG (what pdftoppm writes; with -gray it still writes RGB) to gray
 * levels, the mean of the colour channels. Other kinds are refused rather than misread.
 */
export function decodeGrayPng(png: Uint8Array): GrayImage {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Uint8Array[] = [];
  while (at < png.byteLength) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = CHANNELS[colour] ?? 0;
      if (depth !== 8 || !channels || interlace !== 0)
        throw new Error(`not an 8-bit, non-interlaced PNG without palette (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const bytes = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? bytes[y * stride + x - channels] : 0;
      const up = y > 0 ? bytes[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? bytes[(y - 1) * stride + x - channels] : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      bytes[y * stride + x] = (row[x] + predictor) & 0xff;
    }
  }
  // Alpha is ignored: pdftoppm draws on an opaque white page.
  const colours = channels >= 3 ? 3 : 1;
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i += 1) {
    let sum = 0;
    for (let c = 0; c < colours; c += 1) sum += bytes[i * channels + c];
    pixels[i] = Math.round(sum / colours);
  }
  return { width, height, pixels };
}

/** Ink in `image` at (x, y) or one of its eight neighbours: a one-pixel shift is not a difference. */
function inkNear(image: GrayImage, x: number, y: number): boolean {
  for (let dy = -1; dy <= 1; dy += 1) {
    for (let dx = -1; dx <= 1; dx += 1) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < image.width && ny < image.height && image.pixels[ny * image.width + nx] < INK_BELOW) return true;
    }
  }
  return false;
}

/**
 * The share of ink that does not match: 0 for the same page, near 1 for unrelated pages. Images of
 * different sizes differ entirely. Counting over ink, not over the page, keeps a sparse page's
 * differences from vanishing in its white space.
 */
export function differingInk(a: GrayImage, b: GrayImage): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let ink = 0;
  let unmatched = 0;
  for (const [image, other] of [
    [a, b],
    [b, a],
  ]) {
    for (let y = 0; y < image.height; y += 1) {
      for (let x = 0; x < image.width; x += 1) {
        if (image.pixels[y * image.width + x] >= INK_BELOW) continue;
        ink += 1;
        if (!inkNear(other, x, y)) unmatched += 1;
      }
    }
  }
  return ink === 0 ? 0 : unmatched / ink;
}

/**
 * Compares page `page` of `pdf` with the reference `<name>.png`, after rewriting the reference from it
 * when `update` (a comparison against another document's reference passes false).
 */
export async function comparePageImage(pdf: Uint8Array, name: string, page: number, update: boolean): Promise<PageComparison> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`reference names are lower-case words and dashes, not ${JSON.stringify(name)}`);
  if (!Number.isInteger(page) || page < 1) throw new Error(`pages are numbered from 1, not ${page}`);
  const png = await pagePng(pdf, page);
  const file = join(PAGE_IMAGE_DIR, `${name}.png`);
  if (update) await writeFile(file, png);
  const fresh = decodeGrayPng(png);
  const reference = decodeGrayPng(await readFile(file));
  return {
    differing: differingInk(fresh, reference),
    width: fresh.width,
    height: fresh.height,
    reference: { width: reference.width, height: reference.height },
    updated: update,
  };
}
