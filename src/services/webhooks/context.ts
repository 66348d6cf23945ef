// Builds the delivery context (one shard's D1, URL policy, DNS resolver, User-Agent) from the Worker's bindings.
import type { Db } from '../../db/client';
import type { ScopeBindings } from '../../db/shards';
import { webhookUserAgent, type DeliveryContext } from './deliver';
import { hostResolverFromEnv } from './dns-over-https';
import { urlPolicyFromEnv } from './url-policy';

/** Deliveries of the accounts on the shard whose database is `db`. */
export function deliveryContext(env: ScopeBindings, db: Db): DeliveryContext {
  return { db, policy: urlPolicyFromEnv(env), resolve: hostResolverFromEnv(env), userAgent: webhookUserAgent(env.SERVICE_NAME) };
}
