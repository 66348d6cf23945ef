// Route declarations for the account's signing certificate (decisions.md › Signed output).
import { z } from '@hono/zod-openapi';
import { errorSchema, tenantRoute } from '../openapi-helpers';
import { singleFileBody } from '../single-file-upload';

export const certificateSchema = z
  .object({
    source: z
      .enum(['generated', 'uploaded'])
      .openapi({ description: '`generated`: self-signed on first use; `uploaded`: from a PKCS#12.' }),
    subject: z.string().openapi({ example: 'CN=Acme Inc. (Signing Service), O=Acme Inc.' }),
    issuer: z.string(),
    serial_number: z.string().openapi({ description: 'Hexadecimal.' }),
    not_before: z.string(),
    not_after: z.string(),
    sha256_fingerprint: z.string().openapi({ description: 'SHA-256 of the DER certificate, hexadecimal.' }),
    key_algorithm: z.enum(['RSA', 'P-256', 'P-384']),
    chain_length: z.number().int().openapi({ description: 'Further certificates embedded in each signature (intermediates).' }),
    created_at: z.string(),
  })
  .openapi('SigningCertificate');

const certificateResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ certificate: certificateSchema }) } },
});

export const getCertificate = tenantRoute(
  { scopes: ['account:read'] },
  {
    method: 'get',
    path: '/settings/certificate',
    tags: ['Settings'],
    summary: 'The certificate completed documents are sealed with',
    description: 'The uploaded certificate if there is one, otherwise the account’s self-signed one (generated on first use).',
    responses: { 200: certificateResponse('The active signing certificate.') },
  },
);

export const uploadCertificate = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'put',
    path: '/settings/certificate',
    tags: ['Settings'],
    summary: 'Upload a PKCS#12 to seal documents with',
    description:
      'A .p12/.pfx file holding the private key and its certificate (and any intermediates), with its password; ' +
      'JSON with the file as base64, or multipart/form-data with a `file` part. The key is stored encrypted. A ' +
      'wrong password, a file that is not PKCS#12, an expired certificate or a key that does not match it is refused with 422.',
    request: { body: singleFileBody('CertificateUpload') },
    responses: {
      200: certificateResponse('The uploaded certificate, now used for sealing.'),
      413: { description: 'The request body is over 1 MB.', content: { 'application/json': { schema: errorSchema } } },
    },
  },
);

export const deleteCertificate = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'delete',
    path: '/settings/certificate',
    tags: ['Settings'],
    summary: 'Remove the uploaded certificate and seal with the generated one again',
    responses: { 200: certificateResponse('The generated certificate, now used for sealing.') },
    errors: [404],
  },
);
