// An OAuth client's redirect target for the browser tests: a local HTTP server that hands each
// callback's query to the test waiting for it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type OAuthCallback = {
  redirectUri: string;
  /** The query of the next request to the redirect URI. */
  next(): Promise<URLSearchParams>;
  close(): void;
};

export async function startOAuthCallback(): Promise<OAuthCallback> {
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const server = createServer((req, res) => {
    waiting.shift()?.(new URL(req.url!, 'http://127.0.0.1').searchParams);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    next: () => new Promise<URLSearchParams>((resolve) => waiting.push(resolve)),
    close: () => server.close(),
  };
}
