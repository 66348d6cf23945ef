// src/shared/image-header.ts: what a PNG or JPEG states about itself, read without decoding pixels.
import { describe, expect, it } from 'vitest';
import { decodeBase64, imageSizeProblem, readImageHeader } from '../../src/shared/image-header';

const PNG = decodeBase64('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGMQUGgAIgYIBQARjgLBr5IL3wAAAABJRU5ErkJggg==');
const JPEG = decodeBase64(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
);

describe('readImageHeader', () => {
  it("reads a PNG's format and size from its IHDR", () => {
    expect(readImageHeader(PNG)).toEqual({ format: 'png', width: 2, height: 2 });
  });

  it('refuses a PNG cut off before its IEND chunk', () => {
    expect(readImageHeader(PNG.subarray(0, PNG.length - 12))).toBeNull();
  });

  it('refuses a PNG whose IHDR names a bit depth its colour type does not allow', () => {
    const bad = PNG.slice();
    bad[24] = 4; // RGB (colour type 2) takes 8 or 16 bits
    expect(readImageHeader(bad)).toBeNull();
  });

  it("reads a JPEG's format and size from its start-of-frame segment", () => {
    expect(readImageHeader(JPEG)).toEqual({ format: 'jpeg', width: 1, height: 1 });
  });

  it('refuses a JPEG whose frame has 2 colour components, which a PDF cannot show', () => {
    const bad = JPEG.slice();
    const sof = bad.findIndex((b, i) => b === 0xff && bad[i + 1] === 0xc2);
    bad[sof + 9] = 2;
    expect(readImageHeader(bad)).toBeNull();
  });

  it('refuses a JPEG whose scan starts before any frame header', () => {
    expect(readImageHeader(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]))).toBeNull();
  });

  it('refuses bytes that are neither', () => {
    expect(readImageHeader(new Uint8Array([0, 0, 0]))).toBeNull();
  });
});

describe('imageSizeProblem', () => {
  it('accepts 4096×1024, within a side and the pixel budget', () => {
    expect(imageSizeProblem({ width: 4096, height: 1024 })).toBeNull();
  });

  it('refuses 4096×1025, one row over the 4 MP budget', () => {
    expect(imageSizeProblem({ width: 4096, height: 1025 })).toMatch(/^is 4096×1025 pixels;/);
  });
});
