// A Browser Rendering page that reaches nothing: every request the page makes is answered from a fixed
// set of in-memory resources or aborted, so tenant HTML cannot fetch (SSRF) or read files (file:).
import type { Browser, HTTPRequest, Page } from '@cloudflare/puppeteer';
import { takeBrowserLaunch, type BrowserLauncher, type LaunchUse } from './browser-launches';

/** The made-up origin rendered documents live on (RFC 2606 `.invalid`: never resolvable). */
export const RENDER_ORIGIN = 'https://render.invalid';

export type Resource = { contentType: string; body: string | Uint8Array };

export type SandboxOptions = {
  /** Path on RENDER_ORIGIN → what the page receives for it; any other URL is aborted. */
  resources: Map<string, Resource>;
  /** Our own pages (the thumbnail renderer) need script; tenant HTML never gets it. */
  javascript: boolean;
};

export class RenderingUnavailable extends Error {}

/**
 * Starts one browser session, the only place that launches one: each launch is first taken from the
 * account's budget (BrowserLaunchesExhausted when spent). The caller opens pages in it and must close it.
 */
export async function openBrowser(launcher: BrowserLauncher, use: LaunchUse): Promise<Browser> {
  if (!launcher.binding) throw new RenderingUnavailable('The BROWSER binding (Browser Rendering) is not configured.');
  await takeBrowserLaunch(launcher, use);
  // Imported on the first launch, not with this module (decisions.md › Cold start).
  const { default: puppeteer } = await import('@cloudflare/puppeteer');
  try {
    return await puppeteer.launch(launcher.binding);
  } catch (error) {
    throw new RenderingUnavailable(`Browser Rendering could not start a browser: ${(error as Error).message}`);
  }
}

/** Closes a session, ignoring a browser that is already gone. */
export async function closeBrowser(browser: Browser): Promise<void> {
  try {
    await browser.close();
  } catch {
    // Already disconnected: nothing left to release.
  }
}

function answer(request: HTTPRequest, resources: Map<string, Resource>, blocked: string[]): Promise<void> {
  const url = request.url();
  // data: URLs carry their bytes inline and reach nothing; Chromium does not route them through
  // interception, and this keeps them loading if it ever does.
  if (url.startsWith('data:')) return request.continue();
  if (url.startsWith(`${RENDER_ORIGIN}/`)) {
    const resource = resources.get(new URL(url).pathname);
    if (resource && request.method() === 'GET') {
      return request.respond({ status: 200, contentType: resource.contentType, headers: {}, body: resource.body });
    }
  }
  blocked.push(url);
  return request.abort('blockedbyclient');
}

export type SandboxedPage = { page: Page /** Every URL the page asked for and did not get. */; blocked: string[] };

/**
 * A new page in `browser` with script as `options.javascript` says and request interception that
 * serves `options.resources` and aborts everything else (http, https, file, ws, blob of other pages).
 */
export async function sandboxedPage(browser: Browser, options: SandboxOptions): Promise<SandboxedPage> {
  const page = await browser.newPage();
  const blocked: string[] = [];
  await page.setJavaScriptEnabled(options.javascript);
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    answer(request, options.resources, blocked).catch(() => {
      // The page closed while a request was pending; nothing to answer any more.
    });
  });
  return { page, blocked };
}
