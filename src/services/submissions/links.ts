// Submission identifiers and signing links (decisions.md › Identity and ids; spec › Submitter.signing_url).
import { randomBase62 } from '../../lib/random';

/** Slugs are random base62, 14+ characters (≥ 80 bits), never sequential. */
export function newSlug(): string {
  return randomBase62(16);
}

/**
 * The origin signing links use: the template's custom domain when it names one, else APP_URL, else the
 * origin the request came through.
 */
export function linkBaseFor(templatePreferences: Record<string, unknown>, requestBase: string): string {
  const domain = templatePreferences.custom_domain;
  if (typeof domain === 'string' && /^[a-z0-9.-]+(?::\d+)?$/i.test(domain.trim())) return `https://${domain.trim().toLowerCase()}`;
  return requestBase.replace(/\/+$/, '');
}

export function signingUrl(linkBase: string, slug: string): string {
  return `${linkBase}/s/${slug}`;
}
