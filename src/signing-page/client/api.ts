// The signing page's requests to its own routes (same origin; the link's cookie is the credential): the
// answer's JSON, or a RequestError carrying the API's sentence.
import { createApiClient, errorSentences, sameOrigin } from '../../browser/api';

export class RequestError extends Error {}

// The page's language goes with every request, so that a refusal answered before the slug names the signer
// (a rate limit, a body cap, a malformed body) is in the page's language too (src/routes/signer-refusals.tsx).
const client = createApiClient('', {
  ...sameOrigin,
  headers: () => ({ ...sameOrigin.headers(), 'Accept-Language': document.documentElement.lang }),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields of its own route's JSON
export async function send(method: string, path: string, body?: unknown): Promise<any> {
  const result = await client.call(method, path, body);
  if (!result.ok) throw new RequestError(errorSentences(result).join(' '));
  return result.json ?? {};
}
