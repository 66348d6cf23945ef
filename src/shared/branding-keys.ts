// The branding keys a template, a brand or a custom domain may set (spec › Branding): the server checks
// them (services/branding/branding-rules.ts) and the builder sends them back with a template's preferences.
export const BRANDING_KEYS = [
  'display_title',
  'logo_url',
  'company_name',
  'favicon_url',
  'primary_button_color',
  'header_color',
  'show_branding',
] as const;
