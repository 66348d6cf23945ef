// Where a qes signer's part of each document lives in R2 (issue 18 › 3): the revision prepared before the
// signer leaves for the provider (pending), and once signed, the revision and its CMS. A revision counts
// only once its signer's row says completed (D1 is the commit point): a signed file of a signer who is not
// completed is never read, so a failed or lost callback leaves no half-signed document in use.
import type { Submission, Submitter, TemplateDocument } from '../../db/schema/index';
import { decryptAtRest, encryptAtRest } from '../../lib/encryption';
import { qesFilesPrefix } from '../submissions/file-keys';
import { submissionDocumentObject } from '../submissions/generated-documents';
import type { CertificateDescription } from '../certificates/signer-certificate';
import type { CscSignAlgo } from '../qes/csc-client';
import { completionOrder } from './completion-order';

type Owner = Pick<Submission, 'accountId' | 'id'>;

const signerPrefix = (submission: Owner, submitterId: number) => `${qesFilesPrefix(submission.accountId, submission.id)}${submitterId}/`;

export const pendingKey = (submission: Owner, submitterId: number) => `${signerPrefix(submission, submitterId)}pending.json`;
/** Per attempt: a callback still running for an older submit never reads a newer submit's file. */
export const preparedKey = (submission: Owner, submitterId: number, attempt: string, documentId: number) =>
  `${signerPrefix(submission, submitterId)}pending/${attempt}/${documentId}.pdf`;
export const revisionKey = (submission: Owner, submitterId: number, documentId: number) =>
  `${signerPrefix(submission, submitterId)}signed/${documentId}.pdf`;
export const signatureKey = (submission: Owner, submitterId: number, documentId: number) =>
  `${signerPrefix(submission, submitterId)}signed/${documentId}.p7s`;

/** What the callback needs from the submit that sent the signer away; kept server-side only. */
export type PendingAuthorization = {
  /** Names this submit's prepared files. */
  attempt: string;
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** Submitters completed when the revisions were prepared: the compare-and-set of the completion. */
  completedBefore: number;
  values: Record<string, unknown>;
  hiddenFields: string[];
  /** The credential's chain (base64 DER, signer first) the signed attributes were built for. */
  chain: string[];
  signAlgo: CscSignAlgo;
  /** Per document: where its update starts, the byte-range digest and the hash authorized (base64). */
  documents: { documentId: number; updateStart: number; digest: string; hash: string }[];
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Binds the encrypted record to its signer: a record copied to another key does not decrypt. */
const pendingContext = (submission: Owner, submitterId: number) =>
  `qes pending authorization ${submission.accountId}/${submission.id}/${submitterId}`;

/** Stores a submit's pending authorization, encrypted (it holds the PKCE verifier). */
export async function writePending(
  bucket: R2Bucket,
  secret: string | undefined,
  submission: Owner,
  submitterId: number,
  pending: PendingAuthorization,
): Promise<void> {
  const sealed = await encryptAtRest(secret, encoder.encode(JSON.stringify(pending)), pendingContext(submission, submitterId));
  await bucket.put(pendingKey(submission, submitterId), sealed);
}

export async function readPending(
  bucket: R2Bucket,
  secret: string | undefined,
  submission: Owner,
  submitterId: number,
): Promise<PendingAuthorization | null> {
  const object = await bucket.get(pendingKey(submission, submitterId));
  if (!object) return null;
  const plain = await decryptAtRest(secret, await object.text(), pendingContext(submission, submitterId));
  return JSON.parse(decoder.decode(plain)) as PendingAuthorization;
}

/** Drops the prepared files of a submit, and its pending record unless a newer submit replaced it. */
export async function dropPending(
  bucket: R2Bucket,
  secret: string | undefined,
  submission: Owner,
  submitterId: number,
  pending: PendingAuthorization,
): Promise<void> {
  const current = await readPending(bucket, secret, submission, submitterId);
  const keys = pending.documents.map((d) => preparedKey(submission, submitterId, pending.attempt, d.documentId));
  if (current?.attempt === pending.attempt) keys.push(pendingKey(submission, submitterId));
  await bucket.delete(keys);
}

/** The signing certificate, kept as the CMS object's metadata for the audit page. */
export function certificateMetadata(description: CertificateDescription): Record<string, string> {
  return {
    subject: description.subject,
    issuer: description.issuer,
    serialNumber: description.serialNumber,
    sha256Fingerprint: description.sha256Fingerprint,
  };
}

/** A document as the qes signers left it: the last revision, who signed in it, each one's CMS and certificate. */
export type DocumentRevision = {
  bytes: Uint8Array;
  signers: Submitter[];
  signatures: Uint8Array[];
  certificates: (CertificateDescription | null)[];
};

/**
 * The current revision of `document`: the last completed qes signer's, or the document as sent (with
 * no signers) when none has signed yet. Null when the document itself is missing from storage.
 */
export async function currentRevision(
  bucket: R2Bucket,
  submission: Owner & Pick<Submission, 'slug'>,
  submitters: readonly Submitter[],
  document: TemplateDocument,
): Promise<DocumentRevision | null> {
  const signers: Submitter[] = [];
  const signatures: Uint8Array[] = [];
  const certificates: (CertificateDescription | null)[] = [];
  for (const submitter of completionOrder(submitters)) {
    const cms = await bucket.get(signatureKey(submission, submitter.id, document.id));
    if (!cms) continue;
    signers.push(submitter);
    signatures.push(new Uint8Array(await cms.arrayBuffer()));
    const m = cms.customMetadata ?? {};
    certificates.push(
      m.subject
        ? { subject: m.subject, issuer: m.issuer ?? '', serialNumber: m.serialNumber ?? '', sha256Fingerprint: m.sha256Fingerprint ?? '' }
        : null,
    );
  }
  const last = signers.at(-1);
  const object = last
    ? await bucket.get(revisionKey(submission, last.id, document.id))
    : await submissionDocumentObject(bucket, document, submission.slug);
  if (!object) return null;
  return { bytes: new Uint8Array(await object.arrayBuffer()), signers, signatures, certificates };
}
