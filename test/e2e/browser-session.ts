// A wrangler dev server and a headless Chromium for one e2e file, started and stopped together.
import { chromium, type Browser } from 'playwright-core';
import { startDevServer, type DevServer } from './wrangler-dev';

export type BrowserSession = {
  server: DevServer;
  browser: Browser;
  /** A JSON API request with the set-up account's token; `json` is any: each test reads the fields it asked for. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }>;
  /** The signing link of the newest invitation to `email` (from GET /dev/outbox) on this server; null when none. */
  invitationLink(email: string): Promise<string | null>;
  stop(): Promise<void>;
};

export async function startBrowserSession(port: number): Promise<BrowserSession> {
  const server = await startDevServer(port);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    server,
    browser,
    async call(method, path, body) {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers: { 'X-Auth-Token': server.token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
    },
    async invitationLink(email) {
      const res = await fetch(`${server.base}/dev/outbox?to=${encodeURIComponent(email)}&kind=invitation`);
      const { data } = (await res.json()) as { data: { text: string }[] };
      const match = data[0]?.text.match(/https?:\/\/\S+\/s\/[0-9A-Za-z]+/);
      return match ? match[0].replace(/^https?:\/\/[^/]+/, server.base) : null;
    },
    async stop() {
      if (process.env.E2E_LOGS) console.log(server.output());
      await browser.close();
      await server.stop();
    },
  };
}
