// Branding as a signer sees it, resolved when a page or email is rendered (spec › Branding): each key from
// the first level that sets it — the template's own preferences, then its brand, then the custom domain —
// and the company name falling back to the account's white-label name, the account name, the service name.
import { darken, DEFAULT_PRIMARY_COLOR } from '../../shared/colors';
import type { BrandingKey } from './branding-rules';

export type BrandingLevel = Readonly<Record<string, unknown>> | null | undefined;

export type BrandingSources = {
  /** The template's preferences (branding keys set directly on it, and `signing_nav_style`). */
  template: Readonly<Record<string, unknown>>;
  templateName: string;
  /** The branding of the brand picked by `preferences.brand_id` (the submission's, else the template's). */
  brand?: BrandingLevel;
  /** The branding of the custom domain the page is served on (issue 17 › custom domains). */
  domainBranding?: BrandingLevel;
  /** `whiteLabelName`: the account's white-label display name, once accounts have one. */
  account: { name: string; whiteLabelName?: string | null };
  serviceName: string;
};

export type ResolvedBranding = {
  /** The tab title: `<display_title or template name> - <company_name>`. */
  title: string;
  /** display_title or the template name: the page header's and email's title. */
  displayTitle: string;
  companyName: string;
  logoUrl: string | null;
  faviconUrl: string | null;
  primaryColor: string;
  headerColor: string;
  showBranding: boolean;
  navStyle: 'standard' | 'branded_bar';
  serviceName: string;
};

const HEX = /^#[0-9a-fA-F]{6}$/;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function httpUrl(value: unknown): string | null {
  const v = text(value);
  return v && /^https?:\/\//i.test(v) ? v : null;
}

function color(value: unknown): string | null {
  return typeof value === 'string' && HEX.test(value) ? value : null;
}

export function resolveBranding(sources: BrandingSources): ResolvedBranding {
  const levels = [sources.template, sources.brand, sources.domainBranding];
  /** The first level's usable value of a key (a stored value a later rule made invalid is skipped). */
  const pick = <T>(key: BrandingKey, read: (value: unknown) => T | null): T | null => {
    for (const level of levels) {
      const value = level ? read(level[key]) : null;
      if (value !== null) return value;
    }
    return null;
  };
  const primaryColor = pick('primary_button_color', color) ?? DEFAULT_PRIMARY_COLOR;
  const companyName =
    pick('company_name', text) ?? text(sources.account.whiteLabelName) ?? text(sources.account.name) ?? sources.serviceName;
  const displayTitle = pick('display_title', text) ?? sources.templateName;
  const logoUrl = pick('logo_url', httpUrl);
  return {
    title: `${displayTitle} - ${companyName}`,
    displayTitle,
    companyName,
    logoUrl,
    faviconUrl: pick('favicon_url', httpUrl) ?? logoUrl,
    primaryColor,
    headerColor: pick('header_color', color) ?? darken(primaryColor, 0.2),
    showBranding: pick('show_branding', (v) => (typeof v === 'boolean' ? v : null)) ?? true,
    navStyle: sources.template.signing_nav_style === 'branded_bar' ? 'branded_bar' : 'standard',
    serviceName: sources.serviceName,
  };
}
