// What the signing page header looks like for one set of branding fields, as the console's live preview
// draws it (src/console/client/branding-preview.ts): the rules of resolveBranding (src/services/branding/resolve-branding.ts) for one level, pure so
// that the browser bundle and the tests share it.
import { darken, DEFAULT_PRIMARY_COLOR } from './colors';

const HEX = /^#[0-9a-fA-F]{6}$/;

export type HeaderFields = {
  displayTitle: string;
  companyName: string;
  logoUrl: string;
  primary: string;
  header: string;
  showBranding: boolean;
};

export function headerPreview(values: HeaderFields, fallbacks: { company: string; title: string }) {
  const primary = HEX.test(values.primary) ? values.primary : DEFAULT_PRIMARY_COLOR;
  return {
    title: values.displayTitle.trim() || fallbacks.title,
    company: values.companyName.trim() || fallbacks.company,
    logo: /^https?:\/\//i.test(values.logoUrl.trim()) ? values.logoUrl.trim() : null,
    primary,
    header: HEX.test(values.header) ? values.header : darken(primary, 0.2),
    showBranding: values.showBranding,
  };
}
