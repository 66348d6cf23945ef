// The identity block of signing.complete (spec › Events; issue 18 › 6): at which level a signer signed,
// who vouches for the signature, and how the signer was identified.
import type { Account, Submitter } from '../../db/schema/index';
import type { PayloadIdentity } from '../webhooks/payload-shapes';
import { DEFAULT_QES_PROVIDER, PLATFORM_PROVIDER } from './account-signature-level';
import type { SignatureLevel } from './levels';

/** submitters.verification_method after a right code, by where the code went (signing/email-verification.ts). */
export const CODE_METHODS = { email: 'email_2fa', sms: 'sms_2fa', whatsapp: 'whatsapp_2fa' } as const;

/** Whether a submitter proved control of their email or phone with a code. */
export function verifiedByCode(method: string | null): boolean {
  return method !== null && (Object.values(CODE_METHODS) as string[]).includes(method);
}

/** The submitter's verification method once a CSC provider signed for them. */
export const QES_VERIFICATION_METHOD = 'csc';

/**
 * The block for a completed signer, or null when signing.complete does not fire: it fires for every aes
 * and qes signer, and at ses only for one who proved control of their email with a code.
 * `verifiedAt` is when their email code was checked, if it was.
 */
export function signerIdentity(
  level: SignatureLevel,
  account: Pick<Account, 'signatureProvider'>,
  completed: Pick<Submitter, 'verificationMethod' | 'completedAt'>,
  verifiedAt: string | undefined,
): PayloadIdentity | null {
  const byCode = verifiedByCode(completed.verificationMethod);
  const byPhone = byCode && completed.verificationMethod !== CODE_METHODS.email;
  const completedAt = completed.completedAt ?? new Date().toISOString();
  if (level === 'ses') {
    if (!byCode) return null;
    const provider = byPhone ? (completed.verificationMethod === CODE_METHODS.whatsapp ? 'whatsapp' : 'sms') : 'email';
    return { level, provider, method: completed.verificationMethod!, verified_at: verifiedAt ?? completedAt };
  }
  // qes through the signing page: the provider identified the signer when they authorized (CSC, issue 18 › 3).
  if (level === 'qes' && completed.verificationMethod === QES_VERIFICATION_METHOD) {
    return { level, provider: account.signatureProvider ?? DEFAULT_QES_PROVIDER, method: 'csc', verified_at: completedAt };
  }
  // aes: the account's CA issues the certificate from this evidence; the email code when the template
  // asks for one, else the personal link sent to the email (or the sender's API call).
  const method = byCode ? (byPhone ? 'phone_code' : 'email_code') : completed.verificationMethod === 'api' ? 'api' : 'email_link';
  const provider = level === 'qes' ? (account.signatureProvider ?? DEFAULT_QES_PROVIDER) : PLATFORM_PROVIDER;
  return { level, provider, method, verified_at: byCode ? (verifiedAt ?? completedAt) : completedAt };
}
