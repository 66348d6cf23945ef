// Signing slugs carry their account (docs/decisions.md › Scale (issue 14): routing).
import { describe, expect, it } from 'vitest';
import { accountIdOfSlug, newSlug } from '../../src/services/submissions/links';
import { fromBase62, toBase62 } from '../../src/lib/random';

describe('signing slugs', () => {
  it('round-trips the account id for small and large ids', () => {
    for (const id of [1, 61, 62, 3843, 3844, 1_000_000, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      const slug = newSlug(id);
      expect(slug).toMatch(/^[0-9A-Za-z]+$/);
      expect(accountIdOfSlug(slug)).toBe(id);
    }
  });

  it('keeps 16 random characters in front, so two slugs of one account differ', () => {
    const a = newSlug(42);
    const b = newSlug(42);
    expect(a.slice(0, 16)).not.toBe(b.slice(0, 16));
    expect(a.slice(16)).toBe(b.slice(16));
  });

  it('finds no account in a slug of another shape', () => {
    for (const slug of [
      '',
      'short',
      'a'.repeat(65),
      'abcdefghijklmnop-x1',
      'abcdefghijklmnopq0',
      'abcdefghijklmnopqz',
      '0000000000000000001',
    ]) {
      expect(accountIdOfSlug(slug)).toBeNull();
    }
  });

  it('reads base62 back as written', () => {
    expect(toBase62(0)).toBe('0');
    expect(toBase62(61)).toBe('z');
    expect(toBase62(62)).toBe('10');
    expect(fromBase62(toBase62(123_456_789))).toBe(123_456_789);
    expect(Number.isNaN(fromBase62('a-b'))).toBe(true);
  });
});
