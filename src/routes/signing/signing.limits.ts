// What one signing link, and one client, may make the /s/* routes do (issue 21 › 5; docs/limits.md).
// The slug is the only credential there, so every JSON body is capped and every request is counted.
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { MAX_ATTACHMENT_BYTES } from '../../services/signing/attachments';

/**
 * Bodies carrying field values (PUT /values, POST /submit): a drawn signature is a PNG data URL of
 * some tens of KB, and one picture value may be up to 512 KB (MAX_INLINE_IMAGE_BYTES, ~683 KB as
 * base64), so 1 MB holds a full form with its signature and a large picture.
 */
export const VALUES_BODY_BYTES = 1024 * 1024;
/** A multipart upload: the largest file allowed plus room for the form's other parts and boundaries. */
export const ATTACHMENT_BODY_BYTES = MAX_ATTACHMENT_BYTES + 64 * 1024;
/** Every other JSON body (a code, a reason, a name and an address): a few hundred bytes in use. */
export const SMALL_BODY_BYTES = 16 * 1024;

function describe(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / 1024 / 1024)} MB` : `${Math.floor(bytes / 1024)} KB`;
}

/** Refuses a body over `maxBytes` with 413 before anything reads it (Content-Length, or counted as it streams). */
export function signingBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `The request body is larger than ${describe(maxBytes)}, the limit for this signing page request.`);
    },
  });
}
