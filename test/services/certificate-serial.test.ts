// Generated certificates carry a DER serial: positive and minimally encoded. A zero first byte (one run in
// 256 before) made NSS, behind pdfsig, refuse the whole signature as an unknown validation failure.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { activeIdentityRow } from '../../src/services/certificates/account-identity';
import { generateSigningIdentity, serialNumberBytes } from '../../src/services/pdf/certificate';
import { createAccount, shardOf } from '../helpers';
import { accountRow } from '../shard-fixtures';

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

describe('an account identity generated before serials were minimal', () => {
  async function identityWithSerial(serialNumber: string) {
    const { accountId } = await createAccount({ name: 'Old Serial Co' });
    const shard = await shardOf(accountId);
    const account = await accountRow(accountId);
    const first = await activeIdentityRow(env, createDb(shard), account);
    await shard.prepare('UPDATE signing_identities SET serial_number = ? WHERE id = ?').bind(serialNumber, first.id).run();
    return { first, next: await activeIdentityRow(env, createDb(shard), account) };
  }

  it('is replaced by a new certificate on its next use when its serial has a needless zero byte', async () => {
    const { first, next } = await identityWithSerial('0005aa');
    expect(next.sha256Fingerprint).not.toBe(first.sha256Fingerprint);
    expect(next.serialNumber).toMatch(/^[4-7]/);
  });

  it('is kept when its zero byte is the sign byte DER needs', async () => {
    const { first, next } = await identityWithSerial('0085aa');
    expect(next.sha256Fingerprint).toBe(first.sha256Fingerprint);
  });
});
