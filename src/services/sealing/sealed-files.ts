// The files a submission's sealed documents are downloaded as: each sealed PDF, followed by its audit
// trail when that is a file of its own (a document certified for form filling, issue 33 › 6).
import type { SubmissionDocument } from '../../db/schema/index';
import { auditTrailKey } from '../submissions/file-keys';

export type SealedFile = { filename: string; bytes: Uint8Array };

/** The sealed files in document order; null when one is missing from storage. */
export async function readSealedFiles(
  bucket: R2Bucket,
  documents: Pick<SubmissionDocument, 'filename' | 'r2Key'>[],
): Promise<SealedFile[] | null> {
  const read = async (key: string) => {
    const object = await bucket.get(key);
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  };
  const files = await Promise.all(
    documents.map(async (d) => {
      const [bytes, trail] = await Promise.all([read(d.r2Key), read(auditTrailKey(d.r2Key))]);
      if (!bytes) return null;
      const stem = d.filename.replace(/\.pdf$/i, '');
      return [{ filename: d.filename, bytes }, ...(trail ? [{ filename: `${stem} audit trail.pdf`, bytes: trail }] : [])];
    }),
  );
  return files.some((f) => f === null) ? null : (files.flat() as SealedFile[]);
}
