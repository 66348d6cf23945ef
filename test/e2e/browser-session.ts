// A wrangler dev server and a headless Chromium for one e2e file, started and stopped together: the
// server from a copy of the run's setup (e2e-kit.ts › preparedSetup), the calls through the kit.
import type { Browser } from 'playwright-core';
import { apiOf, launchChromium, outboxLink, preparedSetup, type Reply } from './e2e-kit';
import { startDevServer, type DevServer } from './wrangler-dev';

export type BrowserSession = {
  server: DevServer;
  browser: Browser;
  /** A JSON API request with the set-up account's token; `json` is any: each test reads the fields it asked for. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** The signing link of the newest invitation to `email` (from GET /dev/outbox) on this server; null when none. */
  invitationLink(email: string): Promise<string | null>;
  stop(): Promise<void>;
};

export async function startBrowserSession(port: number): Promise<BrowserSession> {
  const server = await startDevServer(port, { from: await preparedSetup() });
  const browser = await launchChromium();
  const api = apiOf(() => server);
  return {
    server,
    browser,
    call: (method, path, body) => api.call(method, path, body),
    async invitationLink(email) {
      const link = await outboxLink(server.base, email, 'invitation', /https?:\/\/\S+\/s\/[0-9A-Za-z]+/);
      return link ? link.replace(/^https?:\/\/[^/]+/, server.base) : null;
    },
    async stop() {
      if (process.env.E2E_LOGS) console.log(server.output());
      await browser.close();
      await server.stop();
    },
  };
}
