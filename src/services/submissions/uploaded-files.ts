// Whether `file` values name uploads of their submitter: a value can only point at a file the signer
// stored through POST /s/:slug/attachments, never at another signer's or another submission's.
import type { Submission, TemplateField } from '../../db/schema/index';
import { FILE_VALUE } from './field-values';
import { attachmentKeyStem } from './file-keys';

/**
 * Sentences for the `file` values among `values` (by field uuid) that name no upload of this submitter.
 * Values equal to the submitter's stored ones were checked when they were saved and are not looked up again.
 */
export async function unknownUploads(
  bucket: R2Bucket,
  submission: Pick<Submission, 'accountId' | 'id'>,
  submitter: { id: number; values: Record<string, unknown> },
  fields: readonly Pick<TemplateField, 'uuid' | 'name' | 'type'>[],
  values: Record<string, unknown>,
): Promise<string[]> {
  const submitterId = submitter.id;
  const checks = fields
    .filter((f) => f.type === 'file' && typeof values[f.uuid] === 'string' && values[f.uuid] !== submitter.values[f.uuid])
    .map(async (field) => {
      const value = values[field.uuid] as string;
      const uuid = FILE_VALUE.exec(value)?.[1];
      const stem = uuid ? attachmentKeyStem(submission.accountId, submission.id, submitterId, uuid) : null;
      const found = stem ? (await bucket.list({ prefix: stem, limit: 1 })).objects.length > 0 : false;
      return found ? null : `Field "${field.name}" names ${value}, which is not a file this submitter uploaded.`;
    });
  return (await Promise.all(checks)).filter((p): p is string => p !== null);
}
