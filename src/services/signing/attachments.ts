// Files a signer uploads into image and file fields (POST /s/:slug/attachments). Type is judged by the
// file's first bytes, never by its name or the browser's claim. Files for `file` fields are kept in R2
// under the submission, with a `signing_uploads` row that counts them against the account's storage;
// pictures only become the field's data URL value and are not stored (docs/decisions.md › Integrity: storage).
import type { Db } from '../../db/client';
import { isPlanLimitGuardFailure } from '../../db/queries/plan-limits';
import { insertSigningUploadStatement, storedBytes } from '../../db/queries/storage';
import { signerRefusal, type ApiError } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { storageLimitGuard } from '../plan-limits';
import { MAX_INLINE_IMAGE_BYTES } from '../../shared/field-values';
import { attachmentKeyStem } from '../submissions/file-keys';
import { imageSizeProblem, readImageHeader } from '../../shared/image-header';
import { signerFields, type Signing } from './signing-session';

/** File fields take PDFs and images up to 10 MB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

type Kind = { type: string; extension: string };

export function sniff(bytes: Uint8Array): Kind | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { type: 'image/png', extension: 'png' };
  if (starts(0xff, 0xd8, 0xff)) return { type: 'image/jpeg', extension: 'jpg' };
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return { type: 'application/pdf', extension: 'pdf' };
  return null;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export type StoredAttachment = { attachment_uuid: string; content_type: string; byte_size: number; value: string };

/**
 * The signer is not the account's customer: the refusal names no plan and offers no upgrade, only who
 * can help (docs/decisions.md › Integrity: storage).
 */
export function storageFullForSigner(): ApiError {
  return signerRefusal('This account cannot store more files right now; contact the sender.', 'signer_error.storage_full', {}, 403);
}

/**
 * Checks an upload for one of the signer's image, signature, initials or file fields. Returns the value
 * the field takes: a data URL for pictures (what sealing stamps; nothing is stored), `attachment:<uuid>`
 * for files, which are stored in R2 and recorded — within the account's storage, exactly: the row's
 * batch carries the storage guard, and a refused file is deleted again.
 */
export async function storeAttachment(
  files: { db: Db; bucket: R2Bucket },
  signing: Signing,
  input: { fieldUuid: string; file: File },
): Promise<StoredAttachment> {
  const field = signerFields(signing).find((f) => f.uuid === input.fieldUuid);
  if (!field) throw signerRefusal('field_uuid must name one of your fields.', 'signer_error.not_your_field', { field: input.fieldUuid });
  const name = { name: field.name };
  const picture = ['image', 'signature', 'initials', 'stamp'].includes(field.type);
  if (!picture && field.type !== 'file')
    throw signerRefusal(`Field "${field.name}" does not take an uploaded file.`, 'signer_error.upload_not_taken', name);
  const limit = picture ? MAX_INLINE_IMAGE_BYTES : MAX_ATTACHMENT_BYTES;
  if (input.file.size > limit) {
    const size = picture ? `${limit / 1024} KB` : `${limit / 1024 / 1024} MB`;
    throw signerRefusal(
      `The file is larger than ${size}, the limit for field "${field.name}".`,
      'signer_error.upload_too_large',
      { ...name, size },
      413,
    );
  }
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const kind = sniff(bytes);
  if (!kind || (picture && kind.type === 'application/pdf')) {
    throw picture
      ? signerRefusal(`Field "${field.name}" takes a PNG or JPEG image.`, 'client.field_error.image', name, 415)
      : signerRefusal(`Field "${field.name}" takes a PDF, PNG or JPEG file.`, 'signer_error.upload_file_type', name, 415);
  }
  if (picture) {
    // What sealing will stamp: a header it can read and a size it can decode (src/shared/image-header.ts).
    const header = readImageHeader(bytes);
    if (!header)
      throw signerRefusal(
        `Field "${field.name}" takes a PNG or JPEG image; this one is damaged or truncated.`,
        'client.field_error.image_unreadable',
        name,
      );
    const tooLarge = imageSizeProblem(header);
    if (tooLarge) throw signerRefusal(`The image for field "${field.name}" ${tooLarge}`, 'signer_error.image_too_big', name);
  }
  const uuid = crypto.randomUUID();
  if (picture)
    return { attachment_uuid: uuid, content_type: kind.type, byte_size: bytes.length, value: `data:${kind.type};base64,${base64(bytes)}` };

  const { db, bucket } = files;
  const { account, submitter } = signing;
  const { submission } = signing.scope;
  // The early check spares storing a file that would be refused; the guard below is the exact one.
  const max = planOf(account.plan).limits.storageBytes;
  if (Number.isFinite(max) && (await storedBytes(db, account.id)) + bytes.length > max) throw storageFullForSigner();
  const key = `${attachmentKeyStem(submission.accountId, submission.id, submitter.id, uuid)}${kind.extension}`;
  await bucket.put(key, bytes, {
    httpMetadata: { contentType: kind.type },
    customMetadata: { field_uuid: field.uuid, filename: input.file.name.slice(0, 255) },
  });
  try {
    await db.batch([
      storageLimitGuard(db, account, bytes.length),
      insertSigningUploadStatement(db, {
        accountId: account.id,
        submissionId: submission.id,
        submitterId: submitter.id,
        uuid,
        r2Key: key,
        byteSize: bytes.length,
      }),
    ]);
  } catch (error) {
    // The refusal (or the D1 failure) is what the signer must hear, not a failed cleanup.
    await bucket.delete(key).catch((err: unknown) => console.error('deleting a refused upload failed', key, err));
    throw isPlanLimitGuardFailure(error) ? storageFullForSigner() : error;
  }
  return { attachment_uuid: uuid, content_type: kind.type, byte_size: bytes.length, value: `attachment:${uuid}` };
}
