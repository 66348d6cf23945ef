// Browser Rendering launches as a per-account budget (docs/security.md › Browser Rendering): Cloudflare
// caps new browsers per minute for the whole Cloudflare account, so every launch, whatever starts it,
// first takes a slot of its tenant account's budget in the RateLimiter Durable Object.
import type { RateLimiter } from '../../../durable-objects/rate-limiter';
import type { Bindings } from '../../env';

export const BROWSER_LAUNCHES = {
  /** Launches per tenant account and rolling window, all uses together. */
  perWindow: 6,
  /**
   * Background work (thumbnails) may start a launch only while fewer than this many are counted, so
   * an account's uploads keep the rest of the window whatever its thumbnails do.
   */
  backgroundPerWindow: 3,
  windowMs: 60_000,
} as const;

/** What a launch is for: a request waiting on it (HTML, DOCX), or a queue job that can wait. */
export type LaunchUse = 'request' | 'background';

/** The BROWSER binding together with the account whose budget each launch is taken from. */
export type BrowserLauncher = {
  binding: Fetcher | undefined;
  limiter: DurableObjectNamespace<RateLimiter>;
  accountId: number;
};

export function browserLauncher(env: Pick<Bindings, 'BROWSER' | 'RATE_LIMITER'>, accountId: number): BrowserLauncher {
  return { binding: env.BROWSER, limiter: env.RATE_LIMITER, accountId };
}

/** The account has started its launches for this window; `retryAt` (Unix ms) is when a slot frees. */
export class BrowserLaunchesExhausted extends Error {
  constructor(readonly retryAt: number) {
    super('The account has used its Browser Rendering launches for this minute.');
    this.name = 'BrowserLaunchesExhausted';
  }
}

/** The limiter's key: one log per account, shared by every launch path. */
export function launchBudgetKey(accountId: number): string {
  return `browser:account:${accountId}`;
}

/**
 * Takes one launch from the account's budget or throws BrowserLaunchesExhausted. A limiter that cannot
 * answer lets the launch through: Cloudflare's own cap still stands behind it (RenderingUnavailable).
 */
export async function takeBrowserLaunch(launcher: BrowserLauncher, use: LaunchUse): Promise<void> {
  const limit = use === 'request' ? BROWSER_LAUNCHES.perWindow : BROWSER_LAUNCHES.backgroundPerWindow;
  let decision;
  try {
    decision = await launcher.limiter
      .get(launcher.limiter.idFromName(launchBudgetKey(launcher.accountId)))
      .take({ limit, windowMs: BROWSER_LAUNCHES.windowMs });
  } catch (error) {
    console.error(`browser launch of account ${launcher.accountId} not counted:`, error);
    return;
  }
  if (!decision.allowed) throw new BrowserLaunchesExhausted(decision.resetAt);
}
