// What can go wrong at a QES provider (CSC API v2), as one typed error: a sentence a signer can read, one
// for the account's admin, and whether trying again can help. The provider's own body is never shown:
// it is untrusted text in an unknown language (decisions.md › issue 18: QES through a CSC v2 provider).

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

const SIGNER_SENTENCES: Record<QesProviderErrorKind, string> = {
  unreachable: 'The qualified signature provider could not be reached. Nothing was signed; try again in a moment.',
  unavailable: 'The qualified signature provider is temporarily unavailable. Nothing was signed; try again in a moment.',
  blocked_url: 'The qualified signature provider is not set up correctly for this sender. Nothing was signed; please tell the sender.',
  rejected_credentials: 'The qualified signature provider refused this sender’s signing setup. Nothing was signed; please tell the sender.',
  unknown_credential:
    'The qualified signature provider does not know this sender’s signing certificate. Nothing was signed; please tell the sender.',
  credential_unusable:
    'The signing certificate at the qualified signature provider cannot sign right now. Nothing was signed; please tell the sender.',
  declined: 'You cancelled the signature at the qualified signature provider. Nothing was signed; sign again to authorize it.',
  authorization_expired:
    'Your authorization at the qualified signature provider expired before the document was signed. Nothing was signed; authorize again.',
  authorization_mismatch:
    'Your authorization at the qualified signature provider does not cover this document. Nothing was signed; authorize again.',
  bad_response: 'The qualified signature provider gave an answer we could not use. Nothing was signed; try again in a moment.',
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
  /** For the signer: what happened and what to do. */
  readonly signerMessage: string;

  /** `message`: for the account's admin (the settings check's 422) and logs; never the provider's body. */
  constructor(kind: QesProviderErrorKind, message: string) {
    super(message);
    this.name = 'QesProviderError';
    this.kind = kind;
    this.retryable = RETRYABLE.has(kind);
    this.signerMessage = SIGNER_SENTENCES[kind];
  }
}
