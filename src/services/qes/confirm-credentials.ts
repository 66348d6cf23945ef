// The settings check behind PUT /api/settings/signature_level with qes: the provider must answer
// credentials/info for the account's credential with a usable key and certificate chain, or the change
// is refused with a sentence the admin can act on (decisions.md › issue 18: QES through a CSC v2 provider).
import { unprocessable } from '../../lib/errors';
import type { QesProviderCredentials } from './provider-credentials';
import { CscClient, type CscCredential } from './csc-client';
import { QesProviderError } from './provider-error';
import type { QesProviderEnv } from './provider-url';

export async function confirmQesCredentials(env: QesProviderEnv, credentials: QesProviderCredentials): Promise<CscCredential> {
  try {
    return await new CscClient(credentials, env).credentialInfo();
  } catch (error) {
    if (!(error instanceof QesProviderError)) throw error;
    const later = error.retryable ? ' Nothing was saved; try again later.' : ' Nothing was saved.';
    throw unprocessable(`The QES provider did not confirm credential ${credentials.certificateId}: ${error.message}${later}`);
  }
}
