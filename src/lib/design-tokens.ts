// The one visual system of what a signer sees (issue 31 › 5): the signing pages (src/signing-page/styles.ts)
// and the emails (src/services/mail/render.ts) draw their type, spacing, radii, neutrals and states from
// here, and their brand colours from `brandPalette`, which guarantees 4.5:1 text contrast (docs/signing-page.md).
import { contrastRatio, darken, darkenedUntil, INK, readablePair, WHITE } from '../shared/colors';

/** Type scale in px (about a 1.125 ratio from a 16 px body; nothing a signer must read is under 13 px). */
export const TYPE = { small: 13, note: 14, body: 16, lead: 18, title: 22, display: 28 } as const;

/** Line heights: body text, and headings. */
export const LEADING = { body: 1.5, heading: 1.25 } as const;

/** Spacing steps in px: every margin, padding and gap is one of these. */
export const SPACE = { 1: 4, 2: 8, 3: 12, 4: 16, 5: 24, 6: 32, 7: 48 } as const;

/** Corner radii in px. */
export const RADIUS = { small: 4, control: 8, card: 12 } as const;

/** The smallest target a finger or pointer must hit, in CSS px (WCAG 2.2 SC 2.5.5 AAA, 2.5.8 asks 24). */
export const TOUCH_TARGET = 44;

/** Greys and status colours; each text colour reaches 4.5:1 on the surfaces it is used on. */
export const NEUTRAL = {
  text: INK,
  /** Secondary text: 7.6:1 on white, 6.9:1 on the canvas. */
  muted: '#4b5563',
  /** Control borders: 3:1 on white (SC 1.4.11 non-text contrast). */
  border: '#6b7280',
  /** Dividers, not controls. */
  divider: '#e5e7eb',
  surface: WHITE,
  canvas: '#f3f4f6',
  /** Secondary buttons. */
  subtle: '#e5e7eb',
  subtleHover: '#d1d5db',
} as const;

export const STATUS = {
  error: '#b91c1c',
  errorSurface: '#fef2f2',
  success: '#15803d',
  successSurface: '#f0fdf4',
} as const;

/**
 * The system's UI fonts (no download). Unquoted: the page's <style> text is HTML-escaped by hono/jsx, which
 * turns a quote into `&quot;` and so voided the whole `font` declaration (serif pages) — family names made
 * of plain words need no quotes in CSS.
 */
export const FONT_STACK = 'system-ui,-apple-system,Segoe UI,Roboto,Noto Sans,Helvetica Neue,Arial,sans-serif';

/** The colours a page or email takes from the branding, each with the contrast it needs. */
export type BrandPalette = {
  /** Filled buttons' background: the brand colour, darkened only when no text colour reads on it. */
  primary: string;
  /** Text on `primary`: white or ink, 4.5:1 or more. */
  onPrimary: string;
  /** A pressed or hovered filled button. */
  primaryHover: string;
  /** Links, outlines, the focus ring and field highlights on light surfaces: 4.5:1 on white and on the canvas. */
  accent: string;
  /** The header bar and its text. */
  header: string;
  onHeader: string;
};

/**
 * The palette of a branding's primary and header colours. A colour that fails contrast is adjusted (darkened,
 * hue kept) rather than used as it is: a signer must always be able to read the button and the links.
 */
export function brandPalette(primaryColor: string, headerColor: string): BrandPalette {
  const primary = readablePair(primaryColor);
  const header = readablePair(headerColor);
  // Hover moves away from the text colour: darker under white text, lighter-looking (darker still is
  // fine too) under ink; both keep 4.5:1 since darkening only raises contrast with white.
  const hover = primary.text === WHITE ? darken(primary.background, 0.15) : darken(primary.background, 0.08);
  return {
    primary: primary.background,
    onPrimary: primary.text,
    primaryHover: primary.text === WHITE || contrastRatio(INK, hover) >= 4.5 ? hover : primary.background,
    accent: darkenedUntil(primaryColor, NEUTRAL.canvas),
    header: header.background,
    onHeader: header.text,
  };
}
