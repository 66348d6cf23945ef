// Random identifiers: base62 strings from the platform CSPRNG, with no modulo bias.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      // 248 = 4 * 62: bytes at or above it would favour the first characters.
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

/** A non-negative integer in base62 (the alphabet above, most significant digit first). */
export function toBase62(value: number): string {
  let rest = Math.floor(value);
  let out = '';
  do {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out;
}

/** The inverse of `toBase62`; NaN for a character outside the alphabet. */
export function fromBase62(text: string): number {
  let value = 0;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return NaN;
    value = value * 62 + digit;
  }
  return value;
}
