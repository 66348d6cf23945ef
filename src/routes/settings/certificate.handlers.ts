// Handlers for the account's signing certificate.
import type { AppRouteHandler } from '../app-route-handler';
import type { SigningIdentityRow } from '../../db/schema';
import { ApiError, notFound, unprocessable } from '../../lib/errors';
import { readSingleFileUpload } from '../single-file-upload';
import type * as routes from './certificate.routes';

/** A PKCS#12 is a few KB; 1 MB leaves room for long chains. */
const MAX_UPLOAD_BYTES = 1024 * 1024;

export function serializeCertificate(row: SigningIdentityRow) {
  return {
    source: row.source as 'generated' | 'uploaded',
    subject: row.subject,
    issuer: row.issuer,
    serial_number: row.serialNumber,
    not_before: row.notBefore,
    not_after: row.notAfter,
    sha256_fingerprint: row.sha256Fingerprint,
    key_algorithm: row.keyAlgorithm as 'RSA' | 'P-256' | 'P-384',
    chain_length: row.chain.length,
    created_at: row.createdAt,
  };
}

/** The certificate services bring PKI.js, loaded on first use (decisions.md › Cold start). */
const identities = () => import('../../services/certificates/account-identity');

export const getCertificate: AppRouteHandler<typeof routes.getCertificate> = async (c) => {
  const { activeIdentityRow } = await identities();
  const row = await activeIdentityRow(c.env, c.var.scope.db, c.var.principal.account);
  return c.json({ certificate: serializeCertificate(row) }, 200);
};

export const uploadCertificate: AppRouteHandler<typeof routes.uploadCertificate> = async (c) => {
  const { file, fields } = await readSingleFileUpload(c, MAX_UPLOAD_BYTES);
  const { password } = fields;
  if (password === undefined || password === null)
    throw new ApiError(400, 'password is required (an empty string for a file without one).');
  if (typeof password !== 'string') throw new ApiError(400, 'password must be a string.');
  const accountId = c.var.principal.account.id;
  const [{ uploadSigningIdentity }, { UnusableCertificate }] = await Promise.all([
    identities(),
    import('../../services/certificates/pkcs12'),
  ]);
  let row: SigningIdentityRow;
  try {
    row = await uploadSigningIdentity(c.env, c.var.scope.db, accountId, file, password);
  } catch (error) {
    if (error instanceof UnusableCertificate) throw unprocessable(error.message);
    throw error;
  }
  c.set('audit', { action: 'certificate.upload', resourceType: 'account', resourceId: accountId });
  return c.json({ certificate: serializeCertificate(row) }, 200);
};

export const deleteCertificate: AppRouteHandler<typeof routes.deleteCertificate> = async (c) => {
  const accountId = c.var.principal.account.id;
  const db = c.var.scope.db;
  const { activeIdentityRow, removeUploadedIdentity } = await identities();
  if (!(await removeUploadedIdentity(db, accountId))) throw notFound('Uploaded certificate');
  c.set('audit', { action: 'certificate.delete', resourceType: 'account', resourceId: accountId });
  return c.json({ certificate: serializeCertificate(await activeIdentityRow(c.env, db, c.var.principal.account)) }, 200);
};
