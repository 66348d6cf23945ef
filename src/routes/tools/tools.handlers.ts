// Handlers for tools.
import type { AppRouteHandler } from '../app-route-handler';
import { isSealedByAccount } from '../../db/queries/submission-documents';
import { sha256Hex } from '../../lib/crypto';
import { unprocessable } from '../../lib/errors';
import { looksLikePdf } from '../../services/pdf/inspect-pdf';
import { inspectSignatures, UnreadableForVerification } from '../../services/pdf/verify';
import { readSingleFileUpload } from '../single-file-upload';
import type * as routes from './tools.routes';

/** 20 MB files (spec › Limits), base64 in JSON adds a third. */
const MAX_BODY_BYTES = 30 * 1024 * 1024;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const verifyPdf: AppRouteHandler<typeof routes.verifyPdf> = async (c) => {
  const { file } = await readSingleFileUpload(c, MAX_BODY_BYTES);
  if (file.length > MAX_FILE_BYTES) throw unprocessable('file is larger than 20 MB.');
  if (!looksLikePdf(file)) throw unprocessable('file is not a PDF file.');
  let signatures;
  try {
    signatures = await inspectSignatures(file);
  } catch (error) {
    if (error instanceof UnreadableForVerification) throw unprocessable(error.message);
    throw error;
  }
  const last = signatures[signatures.length - 1];
  const sha256 = await sha256Hex(file);
  return c.json(
    {
      sha256,
      ours: await isSealedByAccount(c.var.scope.db, c.var.principal.account.id, sha256),
      unmodified: Boolean(last && last.covers_whole_document && last.integrity_valid && signatures.every((s) => s.integrity_valid)),
      signatures,
    },
    200,
  );
};
