// Route declarations for tools: checking a signed PDF.
import { z } from '@hono/zod-openapi';
import { errorSchema, tenantRoute } from '../openapi-helpers';
import { singleFileBody } from '../single-file-upload';

const signatureSchema = z
  .object({
    field_name: z.string().nullable(),
    signer_subject: z.string().nullable().openapi({ example: 'CN=Acme Inc. (Signing Service), O=Acme Inc.' }),
    signer_common_name: z.string().nullable(),
    signing_time: z
      .string()
      .nullable()
      .openapi({ description: 'The signature dictionary’s /M, or for a document timestamp (ETSI.RFC3161) its token’s time; ISO 8601.' }),
    sub_filter: z.string().nullable().openapi({ example: 'ETSI.CAdES.detached' }),
    byte_range: z.array(z.number()).openapi({ description: 'The /ByteRange: [offset, length, offset, length].' }),
    covers_whole_document: z.boolean().openapi({ description: 'The signed ranges are the whole file except the signature itself.' }),
    integrity_valid: z.boolean().openapi({ description: 'The CMS signature verifies over the signed ranges.' }),
    reason: z.string().nullable(),
  })
  .openapi('PdfSignature');

export const verificationSchema = z
  .object({
    sha256: z.string().openapi({ description: 'SHA-256 of the uploaded file, hexadecimal.' }),
    ours: z.boolean().openapi({ description: 'This account sealed exactly this file: its SHA-256 matches one of its sealed documents.' }),
    unmodified: z.boolean().openapi({ description: 'The last signature covers the whole file and verifies.' }),
    signatures: z.array(signatureSchema),
  })
  .openapi('PdfVerification');

export const verifyPdf = tenantRoute(
  { scopes: ['submissions:read'] },
  {
    method: 'post',
    path: '/tools/verify',
    tags: ['Tools'],
    summary: 'Check a PDF’s signatures and whether it is a document this account sealed',
    description:
      'Upload a PDF (JSON `{ "file": "<base64>" }` or multipart/form-data with a `file` part, up to 20 MB). Every signature is ' +
      'checked: the bytes it covers, its CMS over them, its signer. Certificate trust (chains to a root) is not judged.',
    request: { body: singleFileBody('VerifyUpload') },
    responses: {
      200: { description: 'What the file’s signatures say.', content: { 'application/json': { schema: verificationSchema } } },
      413: { description: 'The request body is over 30 MB.', content: { 'application/json': { schema: errorSchema } } },
    },
  },
);
