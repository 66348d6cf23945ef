// What the signing service needs to reach an account's QES provider; stored encrypted on the account
// (src/services/signature-levels/account-signature-level.ts), used by the CSC client.

/** A Cloud Signature Consortium API v2 provider: its base URL, the account's key and the signing credential. */
export type QesProviderCredentials = { apiKey: string; apiUrl: string; certificateId: string };

/** The account's key is the OAuth client the provider registered for it: `client_id:client_secret`. */
export function splitApiKey(apiKey: string): { clientId: string; clientSecret: string } | null {
  const at = apiKey.indexOf(':');
  if (at <= 0 || at === apiKey.length - 1) return null;
  return { clientId: apiKey.slice(0, at), clientSecret: apiKey.slice(at + 1) };
}
