#!/usr/bin/env node
// Local Browser Rendering without a download: wrangler/miniflare launch "Chrome for Testing" from their
// cache and download it when missing, which fails offline. This puts a wrapper that runs the system's
// Chromium where they look: `$XDG_CACHE_HOME/.wrangler/chrome/linux-<version>/chrome-linux64/chrome`
// (`~/.cache/…` when XDG_CACHE_HOME is unset). Idempotent; `CHROMIUM` overrides the browser path.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Chrome version miniflare asks for (miniflare › BROWSER_VERSION); a newer Chromium speaks its CDP. */
export const BROWSER_VERSION = '126.0.6478.182';

export function wrapperPath(env = process.env) {
  const cache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, '.wrangler', 'chrome', `linux-${BROWSER_VERSION}`, 'chrome-linux64', 'chrome');
}

/** Writes the wrapper unless it is already there; returns its path, or null off Linux / without Chromium. */
export function installBrowserWrapper({ env = process.env, log = () => {} } = {}) {
  if (process.platform !== 'linux') return null;
  const chromium = env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    log(`No Chromium at ${chromium}: Browser Rendering (HTML templates, thumbnails) will try to download Chrome.`);
    return null;
  }
  const path = wrapperPath(env);
  // --no-sandbox: containers and CI runners rarely allow Chromium's user-namespace sandbox.
  const script = `#!/bin/sh\nexec ${JSON.stringify(chromium)} --no-sandbox "$@"\n`;
  if (existsSync(path) && readFileSync(path, 'utf8') === script) return path;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  log(`Browser Rendering: ${path} runs ${chromium}`);
  return path;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = installBrowserWrapper({ log: console.log });
  if (path) console.log(path);
}
