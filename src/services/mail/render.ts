// Message texts: `{{token}}` substitution (HTML-escaped in the HTML part) and the branded email layout.
import { brandPalette, FONT_STACK, LEADING, NEUTRAL, RADIUS, SPACE, TOUCH_TARGET, TYPE } from '../../lib/design-tokens';
import { DEFAULT_PRIMARY_COLOR } from '../../shared/colors';

export type TokenValues = Record<string, string | null | undefined>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Replaces `{{ name }}` tokens with their values, as plain text (the HTML layout escapes the result, so
 * neither a value nor the tenant's own text can inject markup). Unknown tokens stay as written, so a
 * typo is visible to the sender rather than silently blank.
 */
export function fillTokens(template: string, values: TokenValues): string {
  return template.replace(/\{\{\s*([a-z_]+(?:\.[a-z_]+)*)\s*\}\}/gi, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : (value ?? '');
  });
}

export type Branding = {
  companyName: string;
  /** The email's heading under the wordmark: display_title, else the template name (spec › Branding). */
  title?: string | null;
  logoUrl?: string | null;
  primaryColor?: string | null;
  showPoweredBy?: boolean;
  serviceName: string;
};

export type EmailContent = { subject: string; text: string; html: string };

/**
 * A message body as paragraphs (tokens already filled, plain text) with an optional call to action,
 * laid out as a simple table-based HTML email that renders in every client.
 */
/** The layout's own words in the recipient's language, and that language with its direction. */
export type EmailWords = { openLink: string; sentWith: string; locale: string; dir: 'ltr' | 'rtl' };

const ENGLISH_WORDS = (serviceName: string): EmailWords => ({
  openLink: 'Or open this link:',
  sentWith: `Sent with ${serviceName}`,
  locale: 'en',
  dir: 'ltr',
});

export function layoutEmail(
  branding: Branding,
  content: { subject: string; paragraphs: string[]; action?: { label: string; url: string } },
  words: EmailWords = ENGLISH_WORDS(branding.serviceName),
): EmailContent {
  // The signing page's visual system (src/lib/design-tokens.ts), inlined: email clients drop <style>.
  const brand = branding.primaryColor && /^#[0-9a-f]{6}$/i.test(branding.primaryColor) ? branding.primaryColor : DEFAULT_PRIMARY_COLOR;
  const palette = brandPalette(brand, brand);
  const header = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(branding.companyName)}" style="max-height:40px;border:0">`
    : `<strong style="font-size:${TYPE.lead}px">${escapeHtml(branding.companyName)}</strong>`;
  const title = branding.title
    ? `<h1 style="font-size:${TYPE.title}px;line-height:${LEADING.heading};margin:0 0 ${SPACE[4]}px">${escapeHtml(branding.title)}</h1>`
    : '';
  const body = content.paragraphs.map((p) => `<p style="margin:0 0 ${SPACE[4]}px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const button = content.action
    ? `<p style="margin:${SPACE[5]}px 0"><a href="${escapeHtml(content.action.url)}" style="background:${palette.primary};color:${palette.onPrimary};font-weight:600;line-height:${TOUCH_TARGET - 2 * SPACE[3]}px;padding:${SPACE[3]}px ${SPACE[5]}px;border-radius:${RADIUS.control}px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 ${SPACE[4]}px;font-size:${TYPE.small}px;color:${NEUTRAL.muted}">${escapeHtml(words.openLink)} <a href="${escapeHtml(content.action.url)}" style="color:${palette.accent};word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const footer =
    branding.showPoweredBy === false
      ? ''
      : `<p style="margin:${SPACE[5]}px 0 0;font-size:${TYPE.small}px;color:${NEUTRAL.muted}">${escapeHtml(words.sentWith)}</p>`;
  const html = `<!doctype html><html lang="${escapeHtml(words.locale)}" dir="${words.dir}"><body style="font-family:${FONT_STACK};font-size:${TYPE.body}px;line-height:${LEADING.body};color:${NEUTRAL.text};background:${NEUTRAL.canvas};margin:0;padding:${SPACE[5]}px ${SPACE[3]}px">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:${NEUTRAL.surface};border-radius:${RADIUS.card}px;padding:${SPACE[5]}px;border-top:4px solid ${palette.primary}"><tr><td>
<div style="margin-bottom:${SPACE[5]}px">${header}</div>${title}${body}${button}${footer}
</td></tr></table></body></html>`;
  const text = [...content.paragraphs, ...(content.action ? [`${content.action.label}: ${content.action.url}`] : [])].join('\n\n');
  return { subject: content.subject, text, html };
}
