// The audit trail appended to every sealed document: who signed, how they were verified, from where,
// when, every recorded event, and the SHA-256 of the document as uploaded.
import { rgb, type PDFDocument, type PDFImage, type PDFPage } from 'pdf-lib';
import { imageSizeProblem, readImageHeader } from '../../shared/image-header';
import type { DocumentFonts, FontStyle } from './fonts';
import { wrapText } from './text-layout';
import { translatorFor } from '../../lib/i18n/catalogs';
import { autonym, DEFAULT_LOCALE, englishName, isRtl, type Locale } from '../../shared/i18n/locales';

export type AuditSigner = {
  name: string;
  email: string;
  role: string;
  status: string;
  ip: string | null;
  userAgent: string | null;
  /** e.g. "Email link", "Email code (6 digits)", "API". */
  verification: string;
  /** The language the signer's page and disclosure were in (issue 31 › 3), when recorded. */
  language?: Locale | null;
  sentAt: string | null;
  openedAt: string | null;
  completedAt: string | null;
  signature?: { bytes: Uint8Array; format: 'png' | 'jpeg' };
};

/** A paid payment field: amount and currency as charged, and Stripe's payment reference. */
export type AuditPayment = { field: string; payer: string; amount: string; reference: string; paidAt: string | null };

export type AuditEntry = { at: string; event: string; actor: string; ip: string | null; detail?: string };

export type AuditTrail = {
  serviceName: string;
  documentName: string;
  templateName: string;
  submissionRef: string;
  /** SHA-256 hex of the document as uploaded. */
  originalSha256: string;
  completedAt: string | null;
  /** The PAdES baseline level the seal is made at and why, e.g. "PAdES B-B: no time-stamping authority …". */
  signatureLevel?: string;
  signers: AuditSigner[];
  /** Paid payment fields; the section is left out when there are none. */
  payments?: AuditPayment[];
  events: AuditEntry[];
  /** The language of the page's own labels; English unless given. */
  locale?: Locale;
};

const PAGE = { width: 595.28, height: 841.89 }; // A4
const MARGIN = 48;
const MUTED = rgb(0.35, 0.38, 0.45);
const TEXT = rgb(0.08, 0.09, 0.12);
const RULE = rgb(0.85, 0.87, 0.9);

/** Writes lines top to bottom, starting a new page when the current one is full. */
class Writer {
  private page!: PDFPage;
  private y = 0;
  private constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: DocumentFonts,
    private readonly heading: string,
    /** Hebrew and Arabic pages are mirrored: labels on the right, text aligned right. */
    private readonly rtl: boolean,
  ) {}

  static async start(pdf: PDFDocument, fonts: DocumentFonts, heading: string, rtl: boolean): Promise<Writer> {
    const writer = new Writer(pdf, fonts, heading, rtl);
    await writer.newPage();
    return writer;
  }

  private async newPage() {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
    const heading = await this.fonts.face(this.heading, 'bold');
    heading.draw(this.page, heading.text, { x: this.x(MARGIN, heading.width(heading.text, 16)), y: this.y - 16, size: 16, color: TEXT });
    this.y -= 30;
  }

  /** Where something `width` wide starting `left` points in from the left margin goes; mirrored when rtl. */
  private x(left: number, width: number): number {
    return this.rtl ? PAGE.width - left - width : left;
  }

  async ensure(height: number) {
    if (this.y - height < MARGIN) await this.newPage();
  }

  gap(points: number) {
    this.y -= points;
  }

  async rule() {
    await this.ensure(8);
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 4 },
      end: { x: PAGE.width - MARGIN, y: this.y - 4 },
      thickness: 0.5,
      color: RULE,
    });
    this.y -= 10;
  }

  /** One wrapped paragraph; `label` is drawn in a left column when given. */
  async text(value: string, options: { size?: number; style?: FontStyle; label?: string; color?: ReturnType<typeof rgb> } = {}) {
    const size = options.size ?? 9;
    const face = await this.fonts.face(value, options.style);
    const labelWidth = options.label ? 110 : 0;
    const width = PAGE.width - MARGIN * 2 - labelWidth;
    const lines = wrapText(face.width, face.text, size, width);
    await this.ensure(lines.length * size * 1.3);
    if (options.label) {
      const label = await this.fonts.face(options.label);
      label.draw(this.page, label.text, { x: this.x(MARGIN, label.width(label.text, size)), y: this.y - size, size, color: MUTED });
    }
    for (const line of lines) {
      const x = this.x(MARGIN + labelWidth, this.rtl ? face.width(line, size) : 0);
      face.draw(this.page, line, { x, y: this.y - size, size, color: options.color ?? TEXT });
      this.y -= size * 1.3;
    }
  }

  async image(bytes: Uint8Array, format: 'png' | 'jpeg', label: string, placeholder: string) {
    const image = await this.embed(bytes, format);
    if (!image) {
      await this.text(placeholder, { label, color: MUTED });
      return;
    }
    const scale = Math.min(160 / image.width, 40 / image.height, 1);
    await this.ensure(image.height * scale + 6);
    const labelFace = await this.fonts.face(label);
    labelFace.draw(this.page, labelFace.text, {
      x: this.x(MARGIN, labelFace.width(labelFace.text, 9)),
      y: this.y - 9,
      size: 9,
      color: MUTED,
    });
    this.page.drawImage(image, {
      x: this.x(MARGIN + 110, image.width * scale),
      y: this.y - image.height * scale,
      width: image.width * scale,
      height: image.height * scale,
    });
    this.y -= image.height * scale + 6;
  }

  /** The embedded picture, or null when it cannot be drawn (the same header checks as the stamps). */
  private async embed(bytes: Uint8Array, format: 'png' | 'jpeg'): Promise<PDFImage | null> {
    const header = readImageHeader(bytes);
    if (!header || header.format !== format || imageSizeProblem(header)) return null;
    try {
      return format === 'png' ? await this.pdf.embedPng(bytes) : await this.pdf.embedJpg(bytes);
    } catch {
      return null;
    }
  }
}

const show = (value: string | null | undefined) => (value ? value : '—');

/**
 * A recorded instant as the page's language writes a date and time, to the second, in UTC and saying
 * so (the trail stores UTC; a reader in another zone still reads the recorded instant). Four-digit
 * years and a 24-hour clock in every language, so no instant reads two ways. " UTC" is appended rather
 * than asked of Intl, which spells the time out in words in some languages (ko) and would overflow the
 * label column; bidi marks are dropped, the page lays out right-to-left lines itself.
 */
function dateTimeFormat(locale: Locale): (value: string | null | undefined) => string {
  const format = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  return (value) => {
    const at = value ? new Date(value) : null;
    if (!at || Number.isNaN(at.getTime())) return show(value);
    return `${format.format(at).replace(/[\u200e\u200f\u061c]/g, '')} UTC`;
  };
}

/** "עברית (Hebrew, he)"; English alone as "English (en)". */
export function languageLine(language: Locale): string {
  const own = autonym(language);
  const english = englishName(language);
  return own === english ? `${english} (${language})` : `${own} (${english}, ${language})`;
}

/** Appends the audit trail pages to `pdf`. */
export async function appendAuditTrail(pdf: PDFDocument, trail: AuditTrail, fonts: DocumentFonts): Promise<void> {
  const t = translatorFor(trail.locale ?? DEFAULT_LOCALE);
  const locale = trail.locale ?? DEFAULT_LOCALE;
  const when = dateTimeFormat(locale);
  const w = await Writer.start(pdf, fonts, t('audit.title'), isRtl(locale));
  await w.text(trail.documentName, { size: 12, style: 'bold' });
  w.gap(4);
  await w.text(trail.templateName, { label: t('audit.template') });
  await w.text(trail.submissionRef, { label: t('audit.submission') });
  await w.text(when(trail.completedAt), { label: t('audit.completed') });
  await w.text(trail.originalSha256, { label: t('audit.original_sha256') });
  await w.text(t('audit.sealed_note', { service: trail.serviceName }), { color: MUTED, size: 8 });
  if (trail.signatureLevel) await w.text(trail.signatureLevel, { label: t('audit.signature_level') });
  await w.rule();

  await w.text(t('audit.signers'), { size: 11, style: 'bold' });
  w.gap(2);
  for (const signer of trail.signers) {
    await w.text(`${signer.name || signer.email} <${signer.email}>`, { style: 'bold', label: signer.role });
    await w.text(signer.status, { label: t('audit.status') });
    await w.text(signer.verification, { label: t('audit.verification') });
    // The language the signer read the page and disclosure in: its own name, in English, and its BCP 47 tag.
    if (signer.language) await w.text(languageLine(signer.language), { label: t('audit.language') });
    await w.text(show(signer.ip), { label: t('audit.ip') });
    await w.text(show(signer.userAgent), { label: t('audit.user_agent') });
    await w.text(when(signer.sentAt), { label: t('audit.invited') });
    await w.text(when(signer.openedAt), { label: t('audit.opened') });
    await w.text(when(signer.completedAt), { label: t('audit.completed') });
    if (signer.signature)
      await w.image(signer.signature.bytes, signer.signature.format, t('audit.signature'), t('audit.undrawn.placeholder'));
    w.gap(6);
  }
  await w.rule();

  if (trail.payments?.length) {
    await w.text(t('audit.payments'), { size: 11, style: 'bold' });
    w.gap(2);
    for (const payment of trail.payments) {
      await w.text(payment.field, { style: 'bold', label: t('audit.field') });
      await w.text(payment.amount, { label: t('audit.amount') });
      await w.text(payment.reference, { label: t('audit.payment_reference') });
      await w.text(payment.payer, { label: t('audit.paid_by') });
      await w.text(when(payment.paidAt), { label: t('audit.paid') });
      w.gap(6);
    }
    await w.rule();
  }

  await w.text(t('audit.events'), { size: 11, style: 'bold' });
  w.gap(2);
  for (const entry of trail.events) {
    const where = entry.ip ? ` · ${entry.ip}` : '';
    const detail = entry.detail ? ` — ${entry.detail}` : '';
    await w.text(`${entry.event} · ${entry.actor}${where}${detail}`, { label: when(entry.at) });
  }
}
