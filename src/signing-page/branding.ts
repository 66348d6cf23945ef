// The signing page's branding, resolved at render time from the template preferences (spec › Branding).
import type { Account } from '../db/schema/index';

export type PageBranding = {
  title: string;
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

function url(value: unknown): string | null {
  const v = text(value);
  return v && /^https?:\/\//i.test(v) ? v : null;
}

/** The keys with a value: a template key left empty does not hide the domain's. */
function definedKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined && value !== ''));
}

/** A colour darkened by `amount` (0..1): the header colour when only a button colour is set. */
export function darken(hex: string, amount: number): string {
  const channels = [1, 3, 5].map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - amount)));
  return `#${channels.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * `domainBranding`: the branding of the custom domain the page is served on; the template's own keys
 * override it (spec › Branding resolution: template, brand, custom domain, account, service).
 */
export function pageBranding(
  templatePreferences: Record<string, unknown>,
  templateName: string,
  account: Pick<Account, 'name'>,
  serviceName: string,
  domainBranding: Record<string, unknown> = {},
): PageBranding {
  const preferences = { ...domainBranding, ...definedKeys(templatePreferences) };
  const primary = HEX.test(String(preferences.primary_button_color ?? '')) ? String(preferences.primary_button_color) : '#1d4ed8';
  const header = HEX.test(String(preferences.header_color ?? '')) ? String(preferences.header_color) : darken(primary, 0.2);
  const companyName = text(preferences.company_name) ?? account.name ?? serviceName;
  const logoUrl = url(preferences.logo_url);
  return {
    title: `${text(preferences.display_title) ?? templateName} - ${companyName}`,
    companyName,
    logoUrl,
    faviconUrl: url(preferences.favicon_url) ?? logoUrl,
    primaryColor: primary,
    headerColor: header,
    showBranding: preferences.show_branding !== false,
    navStyle: preferences.signing_nav_style === 'branded_bar' ? 'branded_bar' : 'standard',
    serviceName,
  };
}
