// Builds the delivery context (D1, URL policy, DNS resolver, User-Agent) from the Worker's bindings.
import { createDb } from '../../db/client';
import type { Bindings } from '../../env';
import { webhookUserAgent, type DeliveryContext } from './deliver';
import { hostResolverFromEnv } from './dns-over-https';
import { urlPolicyFromEnv } from './url-policy';

export function deliveryContext(env: Bindings): DeliveryContext {
  return { db: createDb(env.DB), policy: urlPolicyFromEnv(env), resolve: hostResolverFromEnv(env), userAgent: webhookUserAgent(env.SERVICE_NAME) };
}
