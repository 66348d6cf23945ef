// X.509 certificates parsed once per isolate, by their DER: every seal carries the same seal and TSA
// certificates, and parsing one with pkijs costs more than the rest of reading a timestamp or
// collecting validation data (decisions.md › B-LTA over B-B).
import * as pkijs from 'pkijs';
import { toHex } from '../../lib/crypto';

/** A certificate as written where it came from, the key it is known by, and parsed. */
export type KnownCertificate = { der: Uint8Array; key: string; certificate: pkijs.Certificate };

const parsed = new Map<string, pkijs.Certificate>();
const PARSED_LIMIT = 200;

/** The certificate in `der`, parsed (a pkijs error when it is not one); the same object for the same bytes. */
export function knownCertificate(der: Uint8Array): KnownCertificate {
  const key = toHex(der);
  let certificate = parsed.get(key);
  if (!certificate) {
    certificate = pkijs.Certificate.fromBER(der);
    if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, certificate);
  }
  return { der, key, certificate };
}
