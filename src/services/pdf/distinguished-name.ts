// X.509 distinguished names as people read them.
import type * as pkijs from 'pkijs';

const NAME_TYPES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/**
 * An attribute value escaped as RFC 4514 §2.4 says, so a signer named `Doe, John` or `a+b` reads as one
 * value and cannot pass for a second attribute: `,+"\<>;` and a NUL anywhere, `#` or a space leading,
 * a space trailing.
 */
export function escapeAttributeValue(value: string): string {
  const chars = Array.from(value);
  return chars
    .map((c, i) => {
      if (c === '\0') return '\\00';
      if (',+"\\<>;'.includes(c) || (i === 0 && (c === ' ' || c === '#')) || (i === chars.length - 1 && c === ' ')) return `\\${c}`;
      return c;
    })
    .join('');
}

/** A distinguished name as `CN=…, O=…`, in the certificate's order, each value escaped (RFC 4514). */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((entry) => `${NAME_TYPES[entry.type] ?? entry.type}=${escapeAttributeValue(String(entry.value.valueBlock.value))}`)
    .join(', ');
}
