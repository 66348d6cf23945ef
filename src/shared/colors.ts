// The signing page's colour rules, one copy for the server (resolve-branding.ts) and the console's live
// preview in the browser (header-preview.ts).

export const DEFAULT_PRIMARY_COLOR = '#1d4ed8';

/** A colour darkened by `amount` (0..1): the header colour when only a button colour is set. */
export function darken(hex: string, amount: number): string {
  const channels = [1, 3, 5].map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - amount)));
  return `#${channels.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}
