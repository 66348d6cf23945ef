// Distinguished names as people read them: each attribute value escaped per RFC 4514 §2.4, so a name
// a signer typed can never read as a second attribute in events, the audit page or verification results.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { escapeAttributeValue, formatName } from '../../src/services/pdf/distinguished-name';

function name(entries: [string, string][]): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: entries.map(([type, value]) => new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) })),
  });
}

describe('formatName', () => {
  it('keeps a comma inside a common name from reading as a second attribute', () => {
    expect(
      formatName(
        name([
          ['2.5.4.3', 'Doe, John'],
          ['2.5.4.10', 'Acme (EU'],
        ]),
      ),
    ).toBe('CN=Doe\\, John, O=Acme (EU');
  });

  it('escapes a name that imitates another attribute', () => {
    expect(formatName(name([['2.5.4.3', 'Mallory, O=Bank+C=US']]))).toBe('CN=Mallory\\, O=Bank\\+C=US');
  });

  it('leaves non-Latin, RTL and emoji names as they are', () => {
    expect(
      formatName(
        name([
          ['2.5.4.3', 'Иван'],
          ['2.5.4.3', 'محمد'],
          ['2.5.4.3', '👩‍💼 Zoë'],
        ]),
      ),
    ).toBe('CN=Иван, CN=محمد, CN=👩‍💼 Zoë');
  });
});

describe('escapeAttributeValue', () => {
  it('escapes the special characters, a NUL, a leading # or space and a trailing space', () => {
    expect(escapeAttributeValue('a"b\\c<d>e;f')).toBe('a\\"b\\\\c\\<d\\>e\\;f');
    expect(escapeAttributeValue('x\0y')).toBe('x\\00y');
    expect(escapeAttributeValue('#1 ')).toBe('\\#1\\ ');
    expect(escapeAttributeValue(' ')).toBe('\\ ');
  });
});
