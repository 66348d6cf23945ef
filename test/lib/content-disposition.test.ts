// Download file names in Content-Disposition (RFC 6266 §4.3, RFC 5987).
import { describe, expect, it } from 'vitest';
import { attachment } from '../../src/lib/content-disposition';

describe('attachment', () => {
  it('gives an ASCII fallback and the exact name in UTF-8 for a non-ASCII name', () => {
    expect(attachment('Vertrag Müller.pdf')).toBe(`attachment; filename="Vertrag M_ller.pdf"; filename*=UTF-8''Vertrag%20M%C3%BCller.pdf`);
  });

  it('keeps quotes, backslashes and line breaks out of the quoted name', () => {
    const header = attachment('a"b\\c\r\nSet-Cookie: x.pdf');
    expect(header.startsWith('attachment; filename="a_b_c__Set-Cookie: x.pdf"; ')).toBe(true);
    expect(header).not.toMatch(/[\r\n]/);
  });

  it('percent-encodes the characters RFC 5987 does not allow unencoded', () => {
    expect(attachment("it's (final)*.pdf")).toContain(`filename*=UTF-8''it%27s%20%28final%29%2A.pdf`);
  });
});
