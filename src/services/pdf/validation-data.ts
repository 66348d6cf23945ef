// The validation data PAdES B-LT puts in the document security store (ETSI EN 319 142-1 § 5.4;
// ISO 32000-2 § 12.8.4.3): every certificate of the signatures and their timestamps, an OCSP
// response (RFC 6960) for each certificate whose issuer names a responder, and for a certificate that
// names no responder but a CRL distribution point, its issuer's CRL (RFC 5280 § 5). Fetched when
// sealing; a responder or CRL that fails, or says anything but "good", fails the seal.
import * as pkijs from 'pkijs';
import { basicOcspCertificates, cmsCertificates } from './der-reader';
import { knownCertificate as known, type KnownCertificate } from './parsed-certificates';
import { readBodyCapped } from '../../lib/request';

const AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1';
const OCSP_METHOD = '1.3.6.1.5.5.7.48.1';
const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const TIMEOUT_MS = 10_000;
/** Public CAs' CRLs run to a few MB; past this one is not worth holding in a Worker's memory. */
const CRL_MAX_BYTES = 10 * 1024 * 1024;

export class ValidationDataFailure extends Error {
  override name = 'ValidationDataFailure';
}

export type ValidationData = {
  /** DER certificates, each once. */
  certificates: Uint8Array[];
  /** DER OCSPResponse (the whole response, as ISO 32000-2 § 12.8.4.3 stores it). */
  ocsps: Uint8Array[];
  /** DER CRLs, each once: for certificates that name a CRL distribution point and no OCSP responder. */
  crls: Uint8Array[];
};

const selfIssued = (c: pkijs.Certificate) => c.issuer.isEqual(c.subject);

function ocspUrl(certificate: pkijs.Certificate): string | undefined {
  const extension = certificate.extensions?.find((e) => e.extnID === AUTHORITY_INFO_ACCESS);
  const access = extension?.parsedValue as pkijs.InfoAccess | undefined;
  const location = access?.accessDescriptions.find((d) => d.accessMethod === OCSP_METHOD)?.accessLocation;
  // GeneralName uniformResourceIdentifier [6]
  return location?.type === 6 && typeof location.value === 'string' && /^https?:\/\//.test(location.value) ? location.value : undefined;
}

/** The first http(s) URI among the certificate's CRL distribution points (RFC 5280 § 4.2.1.13). */
function crlUrl(certificate: pkijs.Certificate): string | undefined {
  const extension = certificate.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS);
  const points = (extension?.parsedValue as pkijs.CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  for (const point of points) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    const uri = names.find((name) => name.type === 6 && typeof name.value === 'string' && /^https?:\/\//.test(name.value));
    if (uri) return uri.value as string;
  }
  return undefined;
}

type CheckedOcsp = { response: Uint8Array; certificates: KnownCertificate[] };

/**
 * Good OCSP answers kept per isolate until their nextUpdate, at most an hour: every seal timestamped by
 * one TSA needs the same answer about the same TSA certificate, and fetching and checking it again
 * cost a network round trip and most of B-LTA's CPU (decisions.md › issue 18). An answer without
 * nextUpdate is not kept.
 */
const ocspCache = new Map<string, { checked: CheckedOcsp; until: number }>();
const OCSP_CACHE_LIMIT = 100;
const OCSP_CACHE_MS = 60 * 60 * 1000;

function freshUntil(basic: pkijs.BasicOCSPResponse): number | undefined {
  const next = basic.tbsResponseData.responses.map((r) => r.nextUpdate?.getTime()).filter((t): t is number => t !== undefined);
  if (next.length !== basic.tbsResponseData.responses.length || next.length === 0) return undefined;
  return Math.min(...next, Date.now() + OCSP_CACHE_MS);
}

async function cachedOcspFor(
  certificate: KnownCertificate,
  issuer: pkijs.Certificate,
  url: string,
  fetcher: typeof fetch,
): Promise<CheckedOcsp> {
  const key = `${url} ${certificate.key}`;
  const hit = ocspCache.get(key);
  if (hit && hit.until > Date.now()) return hit.checked;
  ocspCache.delete(key);
  const { checked, until } = await ocspFor(certificate.certificate, issuer, url, fetcher);
  if (until !== undefined) {
    if (ocspCache.size >= OCSP_CACHE_LIMIT) ocspCache.delete(ocspCache.keys().next().value!);
    ocspCache.set(key, { checked, until });
  }
  return checked;
}

/**
 * CRLs checked against their issuer, kept per isolate by URL until their nextUpdate (at most an hour,
 * like OCSP answers): one CRL speaks for every certificate its CA issued.
 */
type CheckedCrl = { der: Uint8Array; crl: pkijs.CertificateRevocationList };
const crlCache = new Map<string, { checked: CheckedCrl; until: number }>();

async function cachedCrlFor(issuer: KnownCertificate, url: string, fetcher: typeof fetch, who: string): Promise<CheckedCrl> {
  const key = `${url} ${issuer.key}`;
  const hit = crlCache.get(key);
  if (hit && hit.until > Date.now()) return hit.checked;
  crlCache.delete(key);
  const checked = await crlFrom(issuer.certificate, url, fetcher, who);
  const until = Math.min(checked.crl.nextUpdate!.value.getTime(), Date.now() + OCSP_CACHE_MS);
  if (crlCache.size >= OCSP_CACHE_LIMIT) crlCache.delete(crlCache.keys().next().value!);
  crlCache.set(key, { checked, until });
  return checked;
}

/** The CRL at `url`, fetched and verified: signed by `issuer`, about `issuer`, and not past its nextUpdate. */
async function crlFrom(issuer: pkijs.Certificate, url: string, fetcher: typeof fetch, who: string): Promise<CheckedCrl> {
  let res: Response;
  try {
    res = await fetcher(url, { headers: { Accept: 'application/pkix-crl' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ValidationDataFailure(`The CRL for ${who} could not be fetched (${error instanceof Error ? error.name : 'network error'}).`);
  }
  if (!res.ok) throw new ValidationDataFailure(`The CRL distribution point for ${who} answered HTTP ${res.status}.`);
  const body = await readBodyCapped(
    res,
    CRL_MAX_BYTES,
    () => new ValidationDataFailure(`The CRL for ${who} is larger than ${CRL_MAX_BYTES / 1024 / 1024} MB.`),
  );
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = pkijs.CertificateRevocationList.fromBER(body);
  } catch {
    throw new ValidationDataFailure(`The CRL distribution point for ${who} answered something that is not a CRL.`);
  }
  let verified = false;
  try {
    verified = crl.issuer.isEqual(issuer.subject) && (await crl.verify({ issuerCertificate: issuer }));
  } catch {
    verified = false;
  }
  if (!verified) throw new ValidationDataFailure(`The CRL for ${who} is not signed by its issuer.`);
  // A CRL without nextUpdate, or past it, says nothing about now (RFC 5280 § 5.1.2.5).
  if (!crl.nextUpdate || crl.nextUpdate.value.getTime() <= Date.now())
    throw new ValidationDataFailure(`The CRL for ${who} is out of date.`);
  return { der: body, crl };
}

function revokedBy(crl: pkijs.CertificateRevocationList, certificate: pkijs.Certificate): boolean {
  return (crl.revokedCertificates ?? []).some((entry) => entry.userCertificate.isEqual(certificate.serialNumber));
}

const subjectOf = (c: pkijs.Certificate) => c.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');

/** A verified "good" OCSP response for `certificate`, as DER, plus the certificates it carries. */
async function ocspFor(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  url: string,
  fetcher: typeof fetch,
): Promise<{ checked: CheckedOcsp; until?: number }> {
  const who = `the certificate "${subjectOf(certificate)}"`;
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(certificate, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  let res: Response;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/ocsp-request', Accept: 'application/ocsp-response' },
      body: new Uint8Array(request.toSchema(true).toBER(false)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new ValidationDataFailure(
      `The OCSP responder for ${who} could not be reached (${error instanceof Error ? error.name : 'network error'}).`,
    );
  }
  if (!res.ok) throw new ValidationDataFailure(`The OCSP responder for ${who} answered HTTP ${res.status}.`);
  const body = new Uint8Array(await res.arrayBuffer());
  let basic: pkijs.BasicOCSPResponse;
  let basicDer: Uint8Array;
  try {
    const response = pkijs.OCSPResponse.fromBER(body);
    if (response.responseStatus.valueBlock.valueDec !== 0)
      throw new ValidationDataFailure(`The OCSP responder for ${who} refused (status ${response.responseStatus.valueBlock.valueDec}).`);
    if (response.responseBytes?.responseType !== OCSP_BASIC)
      throw new ValidationDataFailure(`The OCSP responder for ${who} gave no basic response.`);
    basicDer = new Uint8Array(response.responseBytes.response.valueBlock.valueHexView);
    basic = pkijs.BasicOCSPResponse.fromBER(basicDer);
  } catch (error) {
    if (error instanceof ValidationDataFailure) throw error;
    throw new ValidationDataFailure(`The OCSP responder for ${who} answered something that is not an OCSP response.`);
  }
  let verified = false;
  try {
    verified = await basic.verify({ trustedCerts: [issuer], issuerCerts: [issuer] });
  } catch {
    verified = false;
  }
  if (!verified) throw new ValidationDataFailure(`The OCSP response for ${who} is not signed by its issuer or a responder it delegated.`);
  const status = await basic.getCertificateStatus(certificate, issuer);
  if (!status.isForCertificate) throw new ValidationDataFailure(`The OCSP response for ${who} is about another certificate.`);
  if (status.status !== 0)
    throw new ValidationDataFailure(`The OCSP responder says ${who} is ${status.status === 1 ? 'revoked' : 'unknown'}.`);
  return { checked: { response: body, certificates: basicOcspCertificates(basicDer).map(known) }, until: freshUntil(basic) };
}

/**
 * Validation data for the CMS signatures given (DER ContentInfo each): their certificates and their
 * timestamps', and an OCSP response for every certificate that names a responder and whose issuer is
 * among them (else its issuer's CRL, when it names a distribution point). Self-issued certificates (roots, the account's generated seal) are trust anchors a
 * verifier must already hold; nothing can be said about their revocation, so they only travel as
 * certificates. `fetcher` reaches the responders (bench/seal times it).
 */
export async function collectValidationData(signatures: readonly Uint8Array[], fetcher: typeof fetch = fetch): Promise<ValidationData> {
  const byDer = new Map<string, KnownCertificate>();
  const add = (certificates: readonly KnownCertificate[]) => {
    for (const certificate of certificates) if (!byDer.has(certificate.key)) byDer.set(certificate.key, certificate);
  };
  // Read from the CMS bytes: the certificates travel into the DSS exactly as the signatures carry them.
  for (const cms of signatures) add(cmsCertificates(cms).map(known));

  const ocsps: Uint8Array[] = [];
  const crls = new Map<string, Uint8Array>();
  const checked = new Set<string>();
  // Responses may bring responder certificates; those are checked too (until nothing new appears).
  for (let pending = [...byDer.values()]; pending.length > 0; ) {
    const next: KnownCertificate[] = [];
    for (const entry of pending) {
      const { certificate } = entry;
      if (checked.has(entry.key) || selfIssued(certificate)) continue;
      checked.add(entry.key);
      const url = ocspUrl(certificate);
      const issuer = [...byDer.values()].find((c) => c.certificate !== certificate && c.certificate.subject.isEqual(certificate.issuer));
      if (!issuer) continue;
      if (!url) {
        const distributionPoint = crlUrl(certificate);
        if (!distributionPoint) continue;
        const who = `the certificate "${subjectOf(certificate)}"`;
        const { der: crl, crl: parsed } = await cachedCrlFor(issuer, distributionPoint, fetcher, who);
        if (revokedBy(parsed, certificate)) throw new ValidationDataFailure(`The CRL says ${who} is revoked.`);
        crls.set(distributionPoint, crl);
        continue;
      }
      const { response, certificates } = await cachedOcspFor(entry, issuer.certificate, url, fetcher);
      ocsps.push(response);
      const before = byDer.size;
      add(certificates);
      if (byDer.size > before) next.push(...certificates);
    }
    pending = next;
  }
  return { certificates: [...byDer.values()].map((c) => c.der), ocsps, crls: [...crls.values()] };
}
