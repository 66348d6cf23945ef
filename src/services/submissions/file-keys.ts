// Where a submission's files live in R2: one prefix per kind, so a permanent delete finds them all.

/** Every sealed file of a submission, the combined download included. */
export function sealedFilesPrefix(accountId: number, submissionId: number): string {
  return `sealed/${accountId}/${submissionId}/`;
}

/** A sealed document: per attempt, so a run that lost a race never overwrites the winner's file. */
export function sealedDocumentKey(accountId: number, submissionId: number): string {
  return `${sealedFilesPrefix(accountId, submissionId)}${crypto.randomUUID()}.pdf`;
}

/**
 * The audit trail of a sealed document certified for form filling, which takes no page of its own
 * (issue 33 › 6): beside the sealed file, under the same prefix, so a permanent delete finds it.
 */
export function auditTrailKey(sealedKey: string): string {
  return `${sealedKey.replace(/\.pdf$/, '')}.audit-trail.pdf`;
}

/** The combined download, made once from the sealed documents (storedCombinedDocument). */
export function combinedDocumentKey(accountId: number, submissionId: number): string {
  return `${sealedFilesPrefix(accountId, submissionId)}combined.pdf`;
}

/** Files signers uploaded into fields. */
export function attachmentsPrefix(accountId: number, submissionId: number): string {
  return `attachments/${accountId}/${submissionId}/`;
}

/** One upload of one submitter, without its extension (png, jpg or pdf, from the file's first bytes). */
export function attachmentKeyStem(accountId: number, submissionId: number, submitterId: number, uuid: string): string {
  return `${attachmentsPrefix(accountId, submissionId)}${submitterId}/${uuid}.`;
}

/** qes signers' revisions of the documents and their pending authorizations (src/services/sealing/qes-revisions.ts). */
export function qesFilesPrefix(accountId: number, submissionId: number): string {
  return `qes/${accountId}/${submissionId}/`;
}
