// Helpers for the Browser Rendering tests: template documents as bytes, their text per page, what the
// request recorder (test/global-setup/browser-rendering.mjs) saw, and the accounts' launch budgets.
import { env, SELF } from 'cloudflare:test';
import { BROWSER_LAUNCHES, browserLauncher, launchBudgetKey, type BrowserLauncher } from '../src/services/rendering/browser-launches';
import { checkPdf } from './pdf-tools';
import { clientAddress } from './helpers';

/** A template document's stored PDF, downloaded through the API. */
export async function downloadDocument(token: string, templateId: string, documentUuid: string): Promise<Uint8Array> {
  const res = await SELF.fetch(`https://api.test/api/templates/${templateId}/documents/${documentUuid}`, {
    headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': clientAddress() },
  });
  if (res.status !== 200) throw new Error(`document download answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** pdftotext's text, one string per page (it ends each page with a form feed). */
export async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const { text } = await checkPdf(pdf);
  if (text.code !== 0) throw new Error(`pdftotext failed: ${text.output}`);
  const pages = text.output.split('\f');
  return pages[pages.length - 1].trim() === '' ? pages.slice(0, -1) : pages;
}

/** A fresh path prefix on the recorder, and the requests that reached it so far. */
export function recorderPath(label: string): { url: string; hits: () => Promise<string[]> } {
  const prefix = `${label}-${crypto.randomUUID()}`;
  return {
    url: `${env.HIT_RECORDER_URL}/${prefix}`,
    hits: async () => (await fetch(`${env.HIT_RECORDER_URL}/__hits/${encodeURIComponent(prefix)}`)).json(),
  };
}

/** A launcher on the real binding for an account id no other test uses (a budget of its own). */
export function testLauncher(accountId = 2_000_000_000 + Math.floor(Math.random() * 1_000_000_000)): BrowserLauncher {
  return browserLauncher(env, accountId);
}

/** Browser launches counted against an account in the current window, read from its RateLimiter log. */
export async function launchesCounted(accountId: number): Promise<number> {
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(launchBudgetKey(accountId)));
  const decision = await limiter.peek({ limit: BROWSER_LAUNCHES.perWindow, windowMs: BROWSER_LAUNCHES.windowMs });
  return BROWSER_LAUNCHES.perWindow - decision.remaining;
}

/** Spends `count` launches of an account's budget without starting a browser (as other launches would). */
export async function spendLaunches(accountId: number, count: number): Promise<void> {
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(launchBudgetKey(accountId)));
  for (let i = 0; i < count; i += 1) await limiter.take({ limit: BROWSER_LAUNCHES.perWindow, windowMs: BROWSER_LAUNCHES.windowMs });
}
