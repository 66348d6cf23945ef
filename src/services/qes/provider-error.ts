// What can go wrong at a QES provider (CSC API v2), as one typed error: a sentence a signer can read, one
// for the account's admin, and whether trying again can help. The provider's own body is never shown:
// it is untrusted text in an unknown language (decisions.md › issue 18: QES through a CSC v2 provider).
import type { MessageKey } from '../../shared/i18n/translator';

export type QesProviderErrorKind =
  /** The provider did not answer (network, DNS, timeout). */
  | 'unreachable'
  /** It answered 429 or 5xx, or said temporarily_unavailable. */
  | 'unavailable'
  /** The account's URL may not be called (SSRF policy), or the provider points elsewhere. */
  | 'blocked_url'
  /** The provider refused the account's client id and secret. */
  | 'rejected_credentials'
  /** The provider does not know the account's credential (qes_certificate_id). */
  | 'unknown_credential'
  /** The credential exists but cannot sign now (key disabled, certificate not valid, unsupported algorithm). */
  | 'credential_unusable'
  /** The signer declined at the provider. */
  | 'declined'
  /** The signer's authorization (code or SAD) expired or is spent. */
  | 'authorization_expired'
  /** The authorization does not cover what is being signed. */
  | 'authorization_mismatch'
  /** The provider answered something that is not CSC v2. */
  | 'bad_response';

/** The signer's sentence of each kind, in the signer's catalog (src/shared/i18n/catalogs). */
const SIGNER_SENTENCES: Record<QesProviderErrorKind, MessageKey> = {
  unreachable: 'qes.error.unreachable',
  unavailable: 'qes.error.unavailable',
  blocked_url: 'qes.error.blocked_url',
  rejected_credentials: 'qes.error.rejected_credentials',
  unknown_credential: 'qes.error.unknown_credential',
  credential_unusable: 'qes.error.credential_unusable',
  declined: 'qes.error.declined',
  authorization_expired: 'qes.error.authorization_expired',
  authorization_mismatch: 'qes.error.authorization_mismatch',
  bad_response: 'qes.error.bad_response',
};

const RETRYABLE: ReadonlySet<QesProviderErrorKind> = new Set([
  'unreachable',
  'unavailable',
  'declined',
  'authorization_expired',
  'authorization_mismatch',
  'bad_response',
]);

export class QesProviderError extends Error {
  readonly kind: QesProviderErrorKind;
  /** Whether the same step may succeed if tried again (a new authorization for the authorization kinds). */
  readonly retryable: boolean;
  /** For the signer: what happened and what to do, as a key of the signer's catalog. */
  readonly signerMessage: MessageKey;

  /** `message`: for the account's admin (the settings check's 422) and logs; never the provider's body. */
  constructor(kind: QesProviderErrorKind, message: string) {
    super(message);
    this.name = 'QesProviderError';
    this.kind = kind;
    this.retryable = RETRYABLE.has(kind);
    this.signerMessage = SIGNER_SENTENCES[kind];
  }
}
