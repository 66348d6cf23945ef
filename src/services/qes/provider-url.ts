// Which QES provider URLs the Worker may call: the webhook destination rules (decisions.md › Webhooks,
// blocked destinations; DNS answers judged too), because the URL is the tenant's to choose and the
// requests carry its secret. QES_PROVIDER_ALLOW_HOSTS exempts local providers in development and tests,
// as WEBHOOK_ALLOW_HOSTS does for webhook receivers; production ignores it.
import { checkWebhookDestination, type DestinationVerdict } from '../webhooks/destination';
import { hostResolverFromEnv, type HostResolver } from '../webhooks/dns-over-https';
import { urlPolicyFromEnv, type UrlWording } from '../webhooks/url-policy';

export type QesProviderEnv = { ENVIRONMENT: string; QES_PROVIDER_ALLOW_HOSTS?: string; DOH_RESOLVER_URL?: string };

const WORDING: UrlWording = { field: 'qes_provider_api_url', caller: 'the signing service' };

/** The URL judged as a webhook destination would be, in the words of the QES setting. */
export function checkQesProviderUrl(
  raw: string,
  env: QesProviderEnv,
  resolve: HostResolver = hostResolverFromEnv(env),
): Promise<DestinationVerdict> {
  return checkWebhookDestination(raw, urlPolicyFromEnv(env, env.QES_PROVIDER_ALLOW_HOSTS), resolve, WORDING);
}
