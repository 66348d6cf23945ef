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

/** A distinguished name as `CN=…, O=…`, in the certificate's order. */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((entry) => `${NAME_TYPES[entry.type] ?? entry.type}=${String(entry.value.valueBlock.value)}`)
    .join(', ');
}
