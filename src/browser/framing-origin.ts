// Which page frames this one, when the account allows it: the check every framed page (the signing page,
// the embedded builder) makes before it posts a message. One copy, so a fix reaches every framed page;
// pure, so the tests run it without a browser.

/** What a page knows of the page framing it: whether it is framed, location.ancestorOrigins, its referrer. */
export type FrameFacts = { framed: boolean; ancestorOrigins: ArrayLike<string> | undefined; referrer: string };

/**
 * The origin framing the page, when it is an allowed one. Chromium and Safari say it in
 * location.ancestorOrigins; elsewhere the referrer of the frame's first load names it (the host page's
 * referrer policy decides whether it is sent; without it no message goes out). Never '*': the payloads
 * name submissions and templates.
 */
export function framingOrigin(facts: FrameFacts, allowed: readonly string[]): string | null {
  if (!facts.framed) return null;
  const ancestors = facts.ancestorOrigins;
  let origin: string | null = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  if (!origin && facts.referrer) {
    try {
      origin = new URL(facts.referrer).origin;
    } catch {
      origin = null;
    }
  }
  return origin && allowed.includes(origin) ? origin : null;
}
