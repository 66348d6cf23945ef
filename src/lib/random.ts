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
