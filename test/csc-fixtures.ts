// The CSC API v2 imitation (test/global-setup/csc-imitation.mjs) as tests use it: its OAuth client, a
// provider URL under a prefix of the test's own (failure switches act on one prefix), and its switches.
import { env } from 'cloudflare:test';
import type { QesProviderCredentials } from '../src/services/qes/provider-credentials';

export const CSC_CLIENT_ID = 'signing-service';
export const CSC_CLIENT_SECRET = 'csc-imitation-secret';

/** Credentials of an account at the imitation, under a fresh prefix. */
export function imitationCredentials(certificateId = 'cred-rsa'): QesProviderCredentials & { prefix: string } {
  const prefix = `${env.TEST_CSC_URL}/t/${crypto.randomUUID()}`;
  return { prefix, apiUrl: `${prefix}/csc/v2`, apiKey: `${CSC_CLIENT_ID}:${CSC_CLIENT_SECRET}`, certificateId };
}

/** POST {prefix}/__outage | __fail-next | __expire | __oauth2. */
export async function imitationSwitch(
  prefix: string,
  name: 'outage' | 'fail-next' | 'expire' | 'oauth2',
  body: Record<string, unknown> = {},
): Promise<void> {
  const res = await fetch(`${prefix}/__${name}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`imitation switch ${name} answered ${res.status}`);
}

/** What the imitation received under the prefix: [{method, path}]. */
export async function imitationRequests(prefix: string): Promise<{ method: string; path: string }[]> {
  return (await fetch(`${prefix}/__requests`)).json();
}

/** The signer's browser at the provider: the consent answered at once, the redirect back returned. */
export async function answerConsent(authorizationUrl: string, decision: 'approve' | 'deny'): Promise<URLSearchParams> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('imitation_decision', decision);
  const res = await fetch(url, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`the imitation answered the authorization with ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('Location')!).searchParams;
}
