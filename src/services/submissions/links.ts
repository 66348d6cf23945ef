// Submission identifiers and signing links (decisions.md › Identity and ids; spec › Submitter.signing_url).
import { fromBase62, randomBase62, toBase62 } from '../../lib/random';

/**
 * Slugs are 16 random base62 characters (95 bits, never sequential) followed by the account id in base62
 * and one character giving that part's length. A slug is the only thing a signer's link holds, and the
 * account id routes it to the account's shard with one control lookup, no fan-out (docs/scaling.md ›
 * Routing). The account id, not the shard, so a link keeps working after the account moves.
 */
export function newSlug(accountId: number): string {
  const account = toBase62(accountId);
  return `${randomBase62(16)}${account}${toBase62(account.length)}`;
}

/** The account a slug was made for, or null when the slug does not have the shape `newSlug` gives. */
export function accountIdOfSlug(slug: string): number | null {
  if (!/^[0-9A-Za-z]{18,64}$/.test(slug)) return null;
  const length = fromBase62(slug.slice(-1));
  if (length < 1 || length > 11 || slug.length < 16 + length + 1) return null;
  const id = fromBase62(slug.slice(-1 - length, -1));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** An active custom signing domain of the account (src/db/queries/custom-domains.ts › activeDomainsOf). */
export type LinkDomain = { hostname: string; isDefault: boolean; branding?: Record<string, unknown> | null };

/**
 * The active domain signing links use now, decided whenever a link is shown or sent (docs/custom-domains.md
 * › Links): the template's `custom_domain` while it is an active domain of the account, else the account's
 * default domain while active, else none: the service base (APP_URL or the request's origin, stored with
 * the submission). A removed or inactive domain therefore falls back without touching any row.
 */
export function chooseLinkDomain<D extends LinkDomain>(templatePreferences: Record<string, unknown>, domains: readonly D[]): D | undefined {
  const named = templatePreferences.custom_domain;
  const wanted = typeof named === 'string' ? named.trim().toLowerCase().replace(/\.$/, '') : '';
  return domains.find((d) => d.hostname === wanted) ?? domains.find((d) => d.isDefault);
}

export function signingUrl(linkBase: string, slug: string): string {
  return `${linkBase}/s/${slug}`;
}

/**
 * The scope with the custom domain its links use now, chosen from the account's active domains (one
 * control query; pages, API responses, cron and queue work call this). The loaded rows stay as read: the
 * submission keeps the service base it was created with, and linkBaseOf decides where a link points.
 */
export function withLinkDomain<S extends { template: { preferences: Record<string, unknown> } }>(
  scope: S,
  domains: readonly LinkDomain[],
): S & { linkDomain: LinkDomain | null } {
  return { ...scope, linkDomain: chooseLinkDomain(scope.template.preferences, domains) ?? null };
}

/**
 * The origin a scope's signing links use: its link domain's (withLinkDomain), else the service base
 * stored with the submission. The domain's branding sits below the brand in emails (docs/branding.md › Resolution: level 3).
 */
export function linkBaseOf(scope: { submission: { linkBase: string }; linkDomain?: LinkDomain | null }): string {
  return scope.linkDomain ? `https://${scope.linkDomain.hostname}` : scope.submission.linkBase.replace(/\/+$/, '');
}
