// The one byte range a `Range` header asks of a file of `size` bytes (RFC 9110 §14.1–14.2).

export type ByteRange = { offset: number; length: number };

/**
 * `null`: send the whole file (no Range, a unit other than bytes, several ranges — which a server may
 * answer whole, §14.2 — or a header it cannot parse, which §14.2 says to ignore). `'unsatisfiable'`: 416.
 */
export function parseByteRange(header: string | null | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix range: the last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return { offset: start, length: end - start + 1 };
}
