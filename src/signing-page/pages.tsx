// The pages a signing link can show: the form, email or phone verification, completed, declined, expired,
// "waiting for others" and unavailable (spec › Submitter states, rule 4; decisions.md › Lifecycles).
import type { PageBranding } from './branding';
import { Layout, type PageFrame } from './layout';
import { DISCLOSURE } from '../services/signing/consent-disclosure';
import type { DocumentView } from '../shared/template-schema';

export type FormData = {
  slug: string;
  submitter: { name: string | null; email: string | null; role: string };
  fields: unknown[];
  values: Record<string, unknown>;
  documents: DocumentView[];
  preferences: Record<string, unknown>;
  can_invite_witness?: boolean;
  disclosure: { version: string; sha256: string; accepted: boolean };
};

export function FormPage(props: { branding: PageBranding; data: FormData; frame?: PageFrame }) {
  return (
    <Layout branding={props.branding} data={{ page: 'form', ...props.data }} frame={props.frame}>
      {props.data.disclosure.accepted ? null : <DisclosureCard />}
      <div id="app" class="documents" aria-live="polite">
        <p class="muted">Loading the document…</p>
      </div>
      <noscript>
        <div class="card">This signing page needs JavaScript to draw the document and your signature.</div>
      </noscript>
    </Layout>
  );
}

/**
 * The electronic records disclosure, before the form (ESIGN §101(c)): the page's script starts the form
 * only once the box is ticked and the acceptance recorded (POST /s/:slug/consent).
 */
function DisclosureCard() {
  return (
    <section class="card" id="disclosure" aria-labelledby="disclosure-title">
      <h1 id="disclosure-title">{DISCLOSURE.title}</h1>
      {DISCLOSURE.sections.map((section) => (
        <>
          <h2>{section.heading}</h2>
          <p>{section.text}</p>
        </>
      ))}
      <p class="muted">Disclosure version {DISCLOSURE.version}</p>
      <div class="consent">
        <input type="checkbox" id="disclosure-accept" name="disclosure-accept" aria-describedby="disclosure-title" />
        <label for="disclosure-accept">I have read this disclosure and agree to use electronic records and signatures.</label>
      </div>
      <div class="actions">
        <button type="button" id="disclosure-continue">
          Continue
        </button>
      </div>
      <p class="error" id="disclosure-error" role="alert"></p>
    </section>
  );
}

/** The code page's words by where the code goes: the phone's mirror the email's. */
const VERIFY_TEXT = {
  email: { heading: 'Verify your email', sends: 'we email a 6-digit code to', button: 'Email me a code' },
  sms: { heading: 'Verify your phone', sends: 'we text a 6-digit code to', button: 'Text me a code' },
  whatsapp: { heading: 'Verify your phone', sends: 'we send a 6-digit code by WhatsApp to', button: 'Send me a code on WhatsApp' },
} as const;

export function VerifyPage(props: {
  branding: PageBranding;
  slug: string;
  channel: keyof typeof VERIFY_TEXT;
  to: string;
  frame?: PageFrame;
}) {
  const text = VERIFY_TEXT[props.channel];
  const to = props.channel === 'email' ? maskEmail(props.to) : maskPhone(props.to);
  return (
    <Layout branding={props.branding} data={{ page: 'verify', slug: props.slug, channel: props.channel }} frame={props.frame}>
      <div class="card" id="verify">
        <h1>{text.heading}</h1>
        <p>
          Before you open this document {text.sends} <strong>{to}</strong>. It is valid for 10 minutes.
        </p>
        <div class="actions">
          <button type="button" id="send-code">
            {text.button}
          </button>
        </div>
        <label for="code">Code</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength={6} pattern="[0-9]{6}" />
        <div class="actions">
          <button type="button" id="check-code">
            Verify
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
  frame?: PageFrame;
}) {
  // In a frame, Continue leaves the frame: the redirect is the host's next page, not the frame's.
  return (
    <Layout branding={props.branding} data={{ page: 'completed', slug: props.slug }} frame={props.frame}>
      <div class="card" id="completed">
        <h1>You have completed this form</h1>
        <p>
          Thank you.{' '}
          {props.downloadUrl ? 'Your signed copy is ready.' : 'Everyone receives a signed copy by email once all parties have signed.'}
        </p>
        <div class="actions">
          {props.downloadUrl ? (
            <a class="button" href={props.downloadUrl} id="download">
              Download the signed copy
            </a>
          ) : null}
          {props.continueUrl ? (
            <a class="button" href={props.continueUrl} id="continue" rel="noopener" target="_top">
              Continue
            </a>
          ) : null}
        </div>
      </div>
      {props.canInviteWitness ? (
        <div class="card" id="witness">
          <h2>Invite a witness</h2>
          <label for="witness-name">Witness name</label>
          <input id="witness-name" autocomplete="name" />
          <label for="witness-email">Witness email</label>
          <input id="witness-email" type="email" autocomplete="email" />
          <div class="actions">
            <button type="button" id="invite-witness">
              Invite witness
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
  return (
    <Layout branding={props.branding} frame={props.frame}>
      <div class="card" id="qes-retry">
        <h1>Your signature is not complete yet</h1>
        <p id="qes-message">{props.text}</p>
        <div class="actions">
          <a class="button" href={`/s/${props.slug}/qes/retry`} id="qes-retry-button">
            Try again
          </a>
          <a href={`/s/${props.slug}`} id="qes-back">
            Back to the form
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
