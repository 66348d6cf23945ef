// The signing page's colour rules, one copy for the server (resolve-branding.ts) and the console's live
// preview in the browser (header-preview.ts).

export const DEFAULT_PRIMARY_COLOR = '#1d4ed8';

/** A colour darkened by `amount` (0..1): the header colour when only a button colour is set. */
export function darken(hex: string, amount: number): string {
  const channels = [1, 3, 5].map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - amount)));
  return `#${channels.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.2 relative luminance of a `#rrggbb` colour (SC 1.4.3's definition). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21 (WCAG 2.2 › contrast ratio). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Normal-size text needs 4.5:1 against what is behind it (WCAG 2.2 SC 1.4.3, level AA). */
export const MIN_TEXT_CONTRAST = 4.5;

export const WHITE = '#ffffff';
export const INK = '#111827';

/**
 * `color` darkened in small steps (hue kept) until it reaches `min` contrast against `background`, a
 * light surface: brand colours too pale to read as text or to carry white text are adjusted, never refused.
 */
export function darkenedUntil(color: string, background: string, min = MIN_TEXT_CONTRAST): string {
  let adjusted = color;
  for (let step = 1; contrastRatio(adjusted, background) < min && step <= 20; step++) adjusted = darken(color, step * 0.05);
  return adjusted;
}

/**
 * Text that reads on `background` at 4.5:1 or more: white when it does, else ink (near black); when
 * neither does (mid-tones), the background is darkened until white does. Returns both.
 */
export function readablePair(background: string): { background: string; text: string } {
  if (contrastRatio(WHITE, background) >= MIN_TEXT_CONTRAST) return { background, text: WHITE };
  if (contrastRatio(INK, background) >= MIN_TEXT_CONTRAST) return { background, text: INK };
  return { background: darkenedUntil(background, WHITE), text: WHITE };
}
