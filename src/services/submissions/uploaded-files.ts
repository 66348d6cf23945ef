// Whether `file` values name uploads of their submitter: a value can only point at a file the signer
// stored through POST /s/:slug/attachments, never at another signer's or another submission's. The
// `signing_uploads` rows are the record of those files (written with them, removed with them).
import type { Db } from '../../db/client';
import { uploadUuidsOf } from '../../db/queries/storage';
import type { TemplateField } from '../../db/schema/index';
import type { SignerProblem } from '../../lib/errors';
import { FILE_VALUE } from '../../shared/field-values';

/**
 * The problems (in English and as the signer's sentence) of the `file` values among `values` (by field uuid) that name no upload of this submitter.
 * Values equal to the submitter's stored ones were checked when they were saved and are not looked up
 * again; the rest are looked up in one query.
 */
export async function unknownUploads(
  db: Db,
  submitter: { id: number; values: Record<string, unknown> },
  fields: readonly Pick<TemplateField, 'uuid' | 'name' | 'type'>[],
  values: Record<string, unknown>,
): Promise<SignerProblem[]> {
  const named = fields
    .filter((f) => f.type === 'file' && typeof values[f.uuid] === 'string' && values[f.uuid] !== submitter.values[f.uuid])
    .map((field) => ({ field, value: values[field.uuid] as string, uuid: FILE_VALUE.exec(values[field.uuid] as string)?.[1] }));
  if (named.length === 0) return [];
  const uuids = named.flatMap((n) => (n.uuid ? [n.uuid] : []));
  const found = uuids.length ? await uploadUuidsOf(db, submitter.id, uuids) : new Set<string>();
  return named
    .filter((n) => !n.uuid || !found.has(n.uuid))
    .map((n) => ({
      english: `Field "${n.field.name}" names ${n.value}, which is not a file this submitter uploaded.`,
      sentence: { key: 'signer_error.upload_unknown', values: { name: n.field.name } },
    }));
}
