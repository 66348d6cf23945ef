// Reads what a PNG or JPEG says about itself (format, width, height) without decoding its pixels, so
// values can be refused before they are stored and sealing can refuse to decode what would not fit.
// Import-free: the signing page's browser script bundles it through field-values.ts.

export type ImageFormat = 'png' | 'jpeg';
export type ImageHeader = { format: ImageFormat; width: number; height: number };

/** Longest side an image value may have, in pixels. */
export const MAX_IMAGE_SIDE = 4096;
/**
 * Pixels an image value may have in all (2048 × 2048). Sealing embeds a PNG by decoding it to 8-bit
 * RGBA and splitting off its alpha channel (pdf-lib), about 12.5 bytes per pixel at its peak: 4 MP
 * costs ~53 MB, which leaves room in the isolate's 128 MB for the document and its sealed copy.
 * 16 MP would need ~210 MB. (decisions.md › Integrity (issue 21): stampable values)
 */
export const MAX_IMAGE_PIXELS = 2048 * 2048;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each PNG colour type allows (PNG spec § 11.2.2 IHDR). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

/**
 * A PNG: the signature, an IHDR first with a valid colour type, bit depth and methods, then chunks that
 * stay inside the file up to IEND, with at least one IDAT (a truncated file never reaches IEND).
 */
function readPng(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 8 + 25 + 12 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  if (u32(bytes, 8) !== 13 || chunkType(bytes, 12) !== 'IHDR') return null;
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  const [depth, colour, compression, filter, interlace] = bytes.subarray(24, 29);
  if (!width || !height || !PNG_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return null;
  let at = 8;
  let sawData = false;
  while (at + 12 <= bytes.length) {
    const length = u32(bytes, at);
    const type = chunkType(bytes, at + 4);
    if (at + 12 + length > bytes.length) return null;
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData ? { format: 'png', width, height } : null;
    at += 12 + length;
  }
  return null;
}

/** Start-of-frame markers (ITU T.81 Table B.1), the ones pdf-lib embeds: every SOFn but DHT, JPG and DAC. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * A JPEG: SOI, then marker segments up to a start-of-frame with a non-zero size and 1, 3 or 4 colour
 * components (grey, RGB, CMYK: what a PDF can show as DCT data), before the scan begins.
 */
function readJpeg(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM and RST0–7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // EOI or the scan before any frame header
    const length = u16(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    if (SOF_MARKERS.has(marker)) {
      if (length < 8) return null;
      const height = u16(bytes, at + 5);
      const width = u16(bytes, at + 7);
      const components = bytes[at + 9];
      if (!width || !height || ![1, 3, 4].includes(components)) return null;
      return { format: 'jpeg', width, height };
    }
    at += 2 + length;
  }
  return null;
}

/** The image's format and size as its header states them, or null when it is not a readable PNG or JPEG. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  return readPng(bytes) ?? readJpeg(bytes);
}

/** Why an image is too large to stamp, or null when it fits. */
export function imageSizeProblem(header: Pick<ImageHeader, 'width' | 'height'>): string | null {
  const { width, height } = header;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return `is ${width}×${height} pixels; images may be at most ${MAX_IMAGE_SIDE} pixels on a side and ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels in all (2048×2048).`;
  }
  return null;
}

/** Standard base64 to bytes; throws on text that is not base64. */
export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
