import { describe, expect, it } from 'vitest';
import { base64UrlEncode, decodeResponse, DNS_TYPE, DnsFormatError, encodeQuery } from '../../src/lib/dns-message';

/** A response to `query` with these answer records appended (raw bytes). */
function response(query: Uint8Array, answerCount: number, answers: number[], rcode = 0): Uint8Array {
  const bytes = [...query, ...answers];
  bytes[2] = 0x81;
  bytes[3] = 0x80 | rcode;
  bytes[7] = answerCount;
  return new Uint8Array(bytes);
}

describe('encodeQuery', () => {
  it('writes one recursive question with id 0, as RFC 8484 recommends for caching', () => {
    const query = encodeQuery('Hooks.Example.', DNS_TYPE.AAAA);
    expect([...query]).toEqual([
      0,
      0,
      1,
      0,
      0,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      5,
      ...new TextEncoder().encode('hooks'),
      7,
      ...new TextEncoder().encode('example'),
      0,
      0,
      28,
      0,
      1,
    ]);
    expect(base64UrlEncode(query)).not.toMatch(/[+/=]/);
  });

  it('refuses a name with a label over 63 characters', () => {
    expect(() => encodeQuery(`${'a'.repeat(64)}.example`, DNS_TYPE.A)).toThrow(DnsFormatError);
  });
});

describe('decodeResponse', () => {
  it('reads A, AAAA and CNAME answers, following compression pointers', () => {
    const query = encodeQuery('a.example', DNS_TYPE.A);
    const cname = [0xc0, 12, 0, 5, 0, 1, 0, 0, 0, 60, 0, 4, 1, 98, 0xc0, 14]; // a.example CNAME b.example
    const a = [0xc0, 39, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 93, 184, 216, 34]; // b.example A (the CNAME target, offset 39)
    const parsed = decodeResponse(response(query, 2, [...cname, ...a]));
    expect(parsed.rcode).toBe(0);
    expect(parsed.answers).toEqual([
      { name: 'a.example', type: 'CNAME', target: 'b.example', ttl: 60 },
      { name: 'b.example', type: 'A', address: '93.184.216.34', ttl: 60 },
    ]);
  });

  it('refuses a compression pointer that does not point backwards, so a hostile answer cannot loop', () => {
    const query = encodeQuery('a.example', DNS_TYPE.A);
    const looping = [0xc0, query.length, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 0, 0, 1]; // points at itself
    expect(() => decodeResponse(response(query, 1, looping))).toThrow('forward compression pointer');
  });

  it('refuses an answer section shorter than its count says', () => {
    const query = encodeQuery('a.example', DNS_TYPE.A);
    expect(() => decodeResponse(response(query, 1, [0xc0, 12, 0, 1, 0, 1]))).toThrow('truncated');
  });
});

describe('decodeResponse: TXT records (custom domain ownership)', () => {
  it('reads a TXT record split into several character-strings as one joined value', () => {
    const query = encodeQuery('_signing-service-verify.sign.example', DNS_TYPE.TXT);
    const rdata = [3, ...new TextEncoder().encode('abc'), 2, ...new TextEncoder().encode('de')];
    const txt = [0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60, 0, rdata.length, ...rdata];
    expect(decodeResponse(response(query, 1, txt)).answers).toEqual([
      { name: '_signing-service-verify.sign.example', type: 'TXT', text: 'abcde', ttl: 60 },
    ]);
  });

  it('refuses a TXT record whose character-string runs past its data', () => {
    const query = encodeQuery('t.example', DNS_TYPE.TXT);
    const txt = [0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60, 0, 2, 5, 97];
    expect(() => decodeResponse(response(query, 1, txt))).toThrow(DnsFormatError);
  });
});
