// The one byte range a Range header asks for (RFC 9110 §14.1–14.2).
import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../src/lib/byte-range';

describe('parseByteRange', () => {
  it('reads a closed range, clamping its end to the file', () => {
    expect(parseByteRange('bytes=10-19', 100)).toEqual({ offset: 10, length: 10 });
    expect(parseByteRange('bytes=90-500', 100)).toEqual({ offset: 90, length: 10 });
  });

  it('reads an open range and a suffix range', () => {
    expect(parseByteRange('bytes=95-', 100)).toEqual({ offset: 95, length: 5 });
    expect(parseByteRange('bytes=-30', 100)).toEqual({ offset: 70, length: 30 });
    expect(parseByteRange('bytes=-300', 100)).toEqual({ offset: 0, length: 100 });
  });

  it('calls a range starting past the end, or an empty suffix, unsatisfiable', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
  });

  it('answers the whole file for no header, several ranges, other units and nonsense', () => {
    for (const header of [null, '', 'bytes=0-1,5-6', 'items=0-1', 'bytes=x-y', 'bytes=20-10', 'bytes=-']) {
      expect(parseByteRange(header, 100)).toBeNull();
    }
  });
});
