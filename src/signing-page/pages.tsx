// The pages a signing link can show: the form, email or phone verification, completed, declined, expired,
// "waiting for others" and unavailable (spec › Submitter states, rule 4; decisions.md › Lifecycles).
import type { PageBranding } from './branding';
import { Layout, pageTranslator, type PageFrame } from './layout';
import { disclosureOf } from '../services/signing/consent-disclosure';
import type { DocumentView } from '../shared/template-schema';
import { DocumentPages } from './document-pages';
import type { Catalog, Translate } from '../shared/i18n/translator';
import type { Locale } from '../shared/i18n/locales';

export type FormData = {
  slug: string;
  submitter: { name: string | null; email: string | null; role: string };
  fields: unknown[];
  values: Record<string, unknown>;
  documents: DocumentView[];
  preferences: Record<string, unknown>;
  can_invite_witness?: boolean;
  /** The disclosure in the page's language: its version and hash are what accepting records. */
  disclosure: { locale: Locale; version: string; sha256: string; accepted: boolean };
  /** The `client.*` messages of the page's language, which the script formats (src/lib/i18n/catalogs.ts). */
  messages: Catalog;
  locale: Locale;
};

export function FormPage(props: { branding: PageBranding; data: FormData; frame?: PageFrame }) {
  const t = pageTranslator(props.frame);
  return (
    <Layout branding={props.branding} data={{ page: 'form', ...props.data }} frame={props.frame}>
      {props.data.disclosure.accepted ? null : <DisclosureCard t={t} />}
      <div id="app" class="documents" aria-live="polite">
        {props.data.documents[0]?.page_images ? null : (
          <p class="muted" id="documents-loading">
            {t('form.loading')}
          </p>
        )}
        <DocumentPages documents={props.data.documents} />
      </div>
      <noscript>
        <div class="card">{t('form.noscript')}</div>
      </noscript>
    </Layout>
  );
}

/**
 * The electronic records disclosure, before the form (ESIGN §101(c)): a short summary with the full text
 * one tap away (issue 31 › 3). The page's script starts the form only once the box is ticked and the
 * acceptance recorded (POST /s/:slug/consent).
 */
function DisclosureCard(props: { t: Translate }) {
  const { t } = props;
  const disclosure = disclosureOf(t);
  return (
    <section class="card" id="disclosure" aria-labelledby="disclosure-title">
      <h1 id="disclosure-title">{disclosure.title}</h1>
      <p id="disclosure-summary">{t('disclosure.summary')}</p>
      <details id="disclosure-full">
        <summary>{t('disclosure.show_full')}</summary>
        {disclosure.sections.map((section) => (
          <>
            <h2>{section.heading}</h2>
            <p>{section.text}</p>
          </>
        ))}
        <p class="muted">{t('disclosure.version_label', { version: disclosure.version })}</p>
      </details>
      <div class="consent">
        <input type="checkbox" id="disclosure-accept" name="disclosure-accept" aria-describedby="disclosure-summary" />
        <label for="disclosure-accept">{t('disclosure.accept')}</label>
      </div>
      <div class="actions">
        <button type="button" id="disclosure-continue">
          {t('disclosure.continue')}
        </button>
      </div>
      <p class="error" id="disclosure-error" role="alert"></p>
    </section>
  );
}

/** The code page's words by where the code goes: the phone's mirror the email's. */
const VERIFY_KEYS = {
  email: { title: 'verify.title', intro: 'verify.intro', button: 'verify.send_code' },
  sms: { title: 'verify.phone.title', intro: 'verify.sms.intro', button: 'verify.sms.send_code' },
  whatsapp: { title: 'verify.phone.title', intro: 'verify.whatsapp.intro', button: 'verify.whatsapp.send_code' },
} as const;

export function VerifyPage(props: {
  branding: PageBranding;
  slug: string;
  channel: keyof typeof VERIFY_KEYS;
  to: string;
  messages: Catalog;
  frame?: PageFrame;
}) {
  const t = pageTranslator(props.frame);
  const keys = VERIFY_KEYS[props.channel];
  const intro = t.rich<unknown>(
    keys.intro,
    props.channel === 'email' ? { email: maskEmail(props.to), minutes: 10 } : { phone: maskPhone(props.to), minutes: 10 },
    { strong: (chunks) => <strong>{chunks}</strong> },
  );
  return (
    <Layout
      branding={props.branding}
      data={{ page: 'verify', slug: props.slug, channel: props.channel, messages: props.messages }}
      frame={props.frame}
    >
      <div class="card" id="verify">
        <h1>{t(keys.title)}</h1>
        <p>{intro}</p>
        <div class="actions">
          <button type="button" id="send-code">
            {t(keys.button)}
          </button>
        </div>
        <label for="code">{t('verify.code_label')}</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength={6} pattern="[0-9]{6}" />
        <div class="actions">
          <button type="button" id="check-code">
            {t('verify.check')}
          </button>
        </div>
        <p class="error" id="verify-error" role="alert"></p>
      </div>
    </Layout>
  );
}

export function CompletedPage(props: {
  branding: PageBranding;
  slug: string;
  continueUrl: string | null;
  downloadUrl: string | null;
  canInviteWitness: boolean;
  messages: Catalog;
  frame?: PageFrame;
}) {
  const t = pageTranslator(props.frame);
  // In a frame, Continue leaves the frame: the redirect is the host's next page, not the frame's.
  return (
    <Layout branding={props.branding} data={{ page: 'completed', slug: props.slug, messages: props.messages }} frame={props.frame}>
      <div class="card" id="completed">
        <h1>{t('completed.title')}</h1>
        <p>{props.downloadUrl ? t('completed.ready') : t('completed.pending')}</p>
        <div class="actions">
          {props.downloadUrl ? (
            <a class="button" href={props.downloadUrl} id="download">
              {t('completed.download')}
            </a>
          ) : null}
          {props.continueUrl ? (
            <a class="button" href={props.continueUrl} id="continue" rel="noopener" target="_top">
              {t('completed.continue')}
            </a>
          ) : null}
        </div>
      </div>
      {props.canInviteWitness ? (
        <div class="card" id="witness">
          <h2>{t('witness.title')}</h2>
          <label for="witness-name">{t('witness.name')}</label>
          <input id="witness-name" autocomplete="name" />
          <label for="witness-email">{t('witness.email')}</label>
          <input id="witness-email" type="email" autocomplete="email" />
          <div class="actions">
            <button type="button" id="invite-witness">
              {t('witness.invite')}
            </button>
          </div>
          <p class="error" id="witness-error" role="alert"></p>
        </div>
      ) : null}
    </Layout>
  );
}

export function MessagePage(props: { branding: PageBranding; id: string; heading: string; text: string; frame?: PageFrame }) {
  return (
    <Layout branding={props.branding} frame={props.frame}>
      <div class="card" id={props.id}>
        <h1>{props.heading}</h1>
        <p>{props.text}</p>
      </div>
    </Layout>
  );
}

/** A qes signature that did not complete (issue 18 › 3): why, in the signer's words, and a retry. */
export function QesRetryPage(props: { branding: PageBranding; slug: string; text: string; frame?: PageFrame }) {
  const t = pageTranslator(props.frame);
  return (
    <Layout branding={props.branding} frame={props.frame}>
      <div class="card" id="qes-retry">
        <h1>{t('qes.retry.title')}</h1>
        <p id="qes-message">{props.text}</p>
        <div class="actions">
          <a class="button" href={`/s/${props.slug}/qes/retry`} id="qes-retry-button">
            {t('qes.retry.again')}
          </a>
          <a href={`/s/${props.slug}`} id="qes-back">
            {t('qes.retry.back')}
          </a>
        </div>
      </div>
    </Layout>
  );
}

/** `jane@example.com` → `j***@example.com`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  if (!domain) return '***';
  return `${local.slice(0, 1)}***@${domain}`;
}

/** "+1•••••••23": enough for the signer to recognise their number, too little to learn it from the page. */
function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.length < 6) return '***';
  return `${digits.slice(0, 2)}${'•'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}
