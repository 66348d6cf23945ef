// The audit trail appended to every sealed document: who signed, how they were verified, from where,
// when, every recorded event, and the SHA-256 of the document as uploaded.
import { rgb, type PDFDocument, type PDFImage, type PDFPage } from 'pdf-lib';
import { imageSizeProblem, readImageHeader } from '../../shared/image-header';
import { UNDRAWN_PLACEHOLDER } from './stamp';
import type { DocumentFonts, FontStyle } from './fonts';
import { wrapText } from './text-layout';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE, englishName, type Locale } from '../../shared/i18n/locales';

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
  ) {}

  static async start(pdf: PDFDocument, fonts: DocumentFonts, heading: string): Promise<Writer> {
    const writer = new Writer(pdf, fonts, heading);
    await writer.newPage();
    return writer;
  }

  private async newPage() {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
    const { font, text } = await this.fonts.forText(this.heading, 'bold');
    this.page.drawText(text, { x: MARGIN, y: this.y - 16, size: 16, font, color: TEXT });
    this.y -= 30;
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
    const { font, text } = await this.fonts.forText(value, options.style);
    const labelWidth = options.label ? 110 : 0;
    const width = PAGE.width - MARGIN * 2 - labelWidth;
    const lines = wrapText(font, text, size, width);
    await this.ensure(lines.length * size * 1.3);
    if (options.label) {
      const label = await this.fonts.forText(options.label);
      this.page.drawText(label.text, { x: MARGIN, y: this.y - size, size, font: label.font, color: MUTED });
    }
    for (const line of lines) {
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y - size, size, font, color: options.color ?? TEXT });
      this.y -= size * 1.3;
    }
  }

  async image(bytes: Uint8Array, format: 'png' | 'jpeg', label: string) {
    const image = await this.embed(bytes, format);
    if (!image) {
      await this.text(UNDRAWN_PLACEHOLDER, { label, color: MUTED });
      return;
    }
    const scale = Math.min(160 / image.width, 40 / image.height, 1);
    await this.ensure(image.height * scale + 6);
    const labelFont = await this.fonts.forText(label);
    this.page.drawText(labelFont.text, { x: MARGIN, y: this.y - 9, size: 9, font: labelFont.font, color: MUTED });
    this.page.drawImage(image, {
      x: MARGIN + 110,
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

/** Appends the audit trail pages to `pdf`. */
export async function appendAuditTrail(pdf: PDFDocument, trail: AuditTrail, fonts: DocumentFonts): Promise<void> {
  const t = translatorFor(trail.locale ?? DEFAULT_LOCALE);
  const w = await Writer.start(pdf, fonts, t('audit.title'));
  await w.text(trail.documentName, { size: 12, style: 'bold' });
  w.gap(4);
  await w.text(trail.templateName, { label: t('audit.template') });
  await w.text(trail.submissionRef, { label: t('audit.submission') });
  await w.text(show(trail.completedAt), { label: t('audit.completed') });
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
    // The language the signer read the page and disclosure in, named in English and its BCP 47 tag.
    if (signer.language) await w.text(`${englishName(signer.language)} (${signer.language})`, { label: t('audit.language') });
    await w.text(show(signer.ip), { label: t('audit.ip') });
    await w.text(show(signer.userAgent), { label: t('audit.user_agent') });
    await w.text(show(signer.sentAt), { label: t('audit.invited') });
    await w.text(show(signer.openedAt), { label: t('audit.opened') });
    await w.text(show(signer.completedAt), { label: t('audit.completed') });
    if (signer.signature) await w.image(signer.signature.bytes, signer.signature.format, t('audit.signature'));
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
      await w.text(show(payment.paidAt), { label: t('audit.paid') });
      w.gap(6);
    }
    await w.rule();
  }

  await w.text(t('audit.events'), { size: 11, style: 'bold' });
  w.gap(2);
  for (const entry of trail.events) {
    const where = entry.ip ? ` · ${entry.ip}` : '';
    const detail = entry.detail ? ` — ${entry.detail}` : '';
    await w.text(`${entry.event} · ${entry.actor}${where}${detail}`, { label: entry.at });
  }
}
