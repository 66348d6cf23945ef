// Generated certificates carry a DER serial: positive and minimally encoded. A zero first byte (one run in
// 256 before) made NSS, behind pdfsig, refuse the whole signature as an unknown validation failure.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { generateSigningIdentity, serialNumberBytes } from '../../src/services/pdf/certificate';

describe('certificate serial numbers', () => {
  it('never start with a zero byte, so a serial below 0x80 after it is still minimal DER', () => {
    const serial = serialNumberBytes(new Uint8Array([0x00, 0x05, 0xff, 0x10]));
    expect(serial[0]).not.toBe(0);
    expect([...serial.slice(1)]).toEqual([0x05, 0xff, 0x10]);
  });

  it('are positive: the top bit of the first byte is clear', () => {
    expect(serialNumberBytes(new Uint8Array([0xff, 0x01]))[0] & 0x80).toBe(0);
  });

  it('are encoded in a generated certificate exactly as chosen, without a sign byte', async () => {
    const { certificate } = await generateSigningIdentity({ commonName: 'Serial Co (test)', organization: 'Serial Co' });
    const parsed = pkijs.Certificate.fromBER(certificate);
    const der = new Uint8Array(parsed.serialNumber.valueBlock.valueHexView);
    expect(der).toHaveLength(16);
    expect(der[0]).toBeGreaterThanOrEqual(0x40);
    expect(der[0]).toBeLessThan(0x80);
    expect(parsed.serialNumber).toBeInstanceOf(asn1js.Integer);
  });
});
