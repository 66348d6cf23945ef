// The signer's visual system (issue 31 › 5): brand colours become a palette whose text always reads at
// 4.5:1 (WCAG 2.2 SC 1.4.3), whatever colour an account picks; the page and the emails use that palette.
import { describe, expect, it } from 'vitest';
import { brandPalette, NEUTRAL, STATUS, TOUCH_TARGET } from '../../src/lib/design-tokens';
import { contrastRatio, relativeLuminance } from '../../src/shared/colors';
import { layoutEmail } from '../../src/services/mail/render';
import { SIGNING_CSS } from '../../src/signing-page/styles';

const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;

/** Every 17th step per channel: 4,096 colours from black to white. */
const SWEEP = Array.from({ length: 16 ** 3 }, (_, i) => hex((i >> 8) * 17, ((i >> 4) & 15) * 17, (i & 15) * 17));

describe('contrast', () => {
  it('computes WCAG ratios', () => {
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 6);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
    // WCAG's own example: #767676 on white is the lightest grey with 4.5:1.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('keeps the neutral and status text colours at 4.5:1 on white and on the canvas', () => {
    for (const color of [NEUTRAL.text, NEUTRAL.muted, STATUS.error, STATUS.success]) {
      expect([color, contrastRatio(color, NEUTRAL.surface) >= 4.5, contrastRatio(color, NEUTRAL.canvas) >= 4.5]).toEqual([
        color,
        true,
        true,
      ]);
    }
    expect(contrastRatio(STATUS.error, STATUS.errorSurface)).toBeGreaterThanOrEqual(4.5);
    // Control borders are non-text: 3:1 (SC 1.4.11).
    expect(contrastRatio(NEUTRAL.border, NEUTRAL.surface)).toBeGreaterThanOrEqual(3);
  });
});

describe('brandPalette', () => {
  it('gives every one of 4,096 brand colours a button, hover, accent and header that read at 4.5:1', () => {
    const failures = SWEEP.filter((color) => {
      const p = brandPalette(color, color);
      return (
        contrastRatio(p.primary, p.onPrimary) < 4.5 ||
        contrastRatio(p.primaryHover, p.onPrimary) < 4.5 ||
        contrastRatio(p.accent, NEUTRAL.surface) < 4.5 ||
        contrastRatio(p.accent, NEUTRAL.canvas) < 4.5 ||
        contrastRatio(p.header, p.onHeader) < 4.5
      );
    });
    expect(failures).toEqual([]);
  });

  it('keeps a brand colour that passes as it is', () => {
    expect(brandPalette('#1d4ed8', '#173ead')).toMatchObject({
      primary: '#1d4ed8',
      onPrimary: '#ffffff',
      accent: '#1d4ed8',
      header: '#173ead',
    });
  });

  it('puts ink on a pale brand colour and darkens it for links', () => {
    const p = brandPalette('#ffeb3b', '#ffeb3b');
    expect(p).toMatchObject({ primary: '#ffeb3b', onPrimary: '#111827' });
    expect(p.accent).not.toBe('#ffeb3b');
    expect(contrastRatio(p.accent, NEUTRAL.canvas)).toBeGreaterThanOrEqual(4.5);
  });

  it('darkens a mid-tone that neither white nor ink reads on, keeping its hue', () => {
    expect(contrastRatio('#cc5028', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#cc5028', '#111827')).toBeLessThan(4.5);
    const p = brandPalette('#cc5028', '#cc5028');
    expect(p.onPrimary).toBe('#ffffff');
    expect(p.primary).not.toBe('#cc5028');
    expect(contrastRatio(p.primary, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(p.primary.slice(i, i + 2), 16));
    expect(r > g && g > b).toBe(true);
  });
});

describe('one system for the page and the emails', () => {
  it('sizes every control of the page to the 44 px target', () => {
    expect(TOUCH_TARGET).toBe(44);
    expect(SIGNING_CSS).toContain('--target:44px');
    for (const rule of ['button,.button{', 'input,select,textarea{', '#disclosure summary{']) {
      const body = SIGNING_CSS.slice(SIGNING_CSS.indexOf(rule)).split('}')[0];
      expect([rule, body]).toEqual([rule, expect.stringContaining('min-height:var(--target)')]);
    }
  });

  it('holds no character the page’s escaped <style> text would change (a quote voided the font declaration)', () => {
    expect(SIGNING_CSS).not.toMatch(/["'<>&]/);
  });

  it('draws the email button in the adjusted brand colour with readable text and a 44 px target', () => {
    const email = layoutEmail(
      { companyName: 'Acme', serviceName: 'Signing Service', primaryColor: '#ffeb3b' },
      { subject: 'Sign', paragraphs: ['Hello'], action: { label: 'Review and sign', url: 'https://sign.test/s/x' } },
    );
    const p = brandPalette('#ffeb3b', '#ffeb3b');
    expect(email.html).toContain(`background:${p.primary};color:${p.onPrimary};`);
    expect(email.html).toContain(`color:${p.accent};`);
    const button = /<a href="https:\/\/sign\.test\/s\/x" style="([^"]*)"/.exec(email.html)![1];
    const lineHeight = Number(/line-height:(\d+)px/.exec(button)![1]);
    const padding = Number(/padding:(\d+)px/.exec(button)![1]);
    expect(lineHeight + 2 * padding).toBeGreaterThanOrEqual(44);
  });
});
