// The boundary reader behind B-LTA's validation data and timestamp reading (decisions.md › B-LTA over
// B-B): it finds a CMS's certificates, and its timestamp token's, as the bytes they are written as —
// the same ones pkijs finds — in DER and in BER with indefinite lengths, and refuses what it cannot follow.
import { env } from 'cloudflare:test';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningIdentity, type SigningIdentity } from '../../src/services/pdf/certificate';
import { createCadesDetachedSignature } from '../../src/services/pdf/cms-signature';
import { cmsCertificates, MalformedDer } from '../../src/services/pdf/der-reader';
import { timestamperFor } from '../../src/services/pdf/timestamp';
import { signedDataOf } from '../signature-contents';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** What pkijs finds in the CMS: its certificates, then its signature-timestamp token's, re-encoded. */
function pkijsCertificates(cms: Uint8Array): string[] {
  const signedData = signedDataOf(cms);
  const own = (signedData.certificates ?? []) as pkijs.Certificate[];
  const token = signedData.signerInfos[0].unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
  const fromToken = token
    ? ((new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: token.values[0] }).content }).certificates ??
        []) as pkijs.Certificate[])
    : [];
  return [...own, ...fromToken].map((c) => hex(new Uint8Array(c.toSchema(true).toBER(false))));
}

/** The CMS with its ContentInfo, [0] and SignedData written with indefinite lengths (BER, as some signers write it). */
function withIndefiniteLengths(cms: Uint8Array): Uint8Array {
  const contentInfo = asn1js.fromBER(cms).result as asn1js.Sequence;
  const explicit = contentInfo.valueBlock.value[1] as asn1js.Constructed;
  const signedData = explicit.valueBlock.value[0] as asn1js.Sequence;
  for (const block of [contentInfo, explicit, signedData]) {
    block.lenBlock.isIndefiniteForm = true;
    (block.valueBlock as unknown as { isIndefiniteForm: boolean }).isIndefiniteForm = true;
  }
  return new Uint8Array(contentInfo.toBER(false));
}

describe('The CMS boundary reader', () => {
  let signer: SigningIdentity;
  let cms: Uint8Array;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Reader Seal', organization: 'Reader' });
    cms = await createCadesDetachedSignature(new Uint8Array(32), signer, timestamperFor([`${env.TEST_TSA_URL}/tsa`]));
  });

  it('finds the certificates pkijs finds, the seal’s first and then the timestamp token’s, byte for byte', () => {
    const found = cmsCertificates(cms).map(hex);
    expect(found[0]).toBe(hex(signer.certificate));
    expect(found.length).toBeGreaterThan(1);
    expect(found).toEqual(pkijsCertificates(cms));
  });

  it('finds the same certificates when the CMS is written with indefinite lengths', () => {
    const ber = withIndefiniteLengths(cms);
    expect(ber[1]).toBe(0x80);
    expect(cmsCertificates(ber).map(hex)).toEqual(cmsCertificates(cms).map(hex));
  });

  it('refuses a truncated CMS, and one whose lengths point past its end', () => {
    expect(() => cmsCertificates(cms.subarray(0, cms.length - 10))).toThrow(MalformedDer);
    const lying = cms.slice();
    lying[2] = 0xff; // the ContentInfo's long length now claims more bytes than there are
    expect(() => cmsCertificates(lying)).toThrow(MalformedDer);
  });

  it('refuses something that is not CMS SignedData', () => {
    expect(() => cmsCertificates(signer.certificate)).toThrow(MalformedDer);
  });
});
