// What the signing service needs to reach an account's QES provider; stored encrypted on the account
// (src/services/signature-levels/account-signature-level.ts), used by the CSC client.

/** A Cloud Signature Consortium API v2 provider: its base URL, the account's key and the signing credential. */
export type QesProviderCredentials = { apiKey: string; apiUrl: string; certificateId: string };
