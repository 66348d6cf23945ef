// The MFA pages (docs/mfa.md): enrolment with a QR code, the backup codes shown once, the enrolled
// state (regenerate, disable), and the sign-in step that asks for a code. Plain HTML forms: no script.
import { ConsoleLayout, type ConsoleViewer } from '../layout';

const CodeInput = (props: { id: string; label: string; backup?: boolean }) => (
  <>
    <label for={props.id}>{props.label}</label>
    <input
      id={props.id}
      name="code"
      required
      autocomplete="one-time-code"
      inputmode={props.backup ? 'text' : 'numeric'}
      pattern={props.backup ? undefined : '[0-9 ]{6,7}'}
      maxlength={props.backup ? 16 : 7}
      spellcheck={false}
    />
  </>
);

const Problem = (props: { error?: string }) =>
  props.error ? (
    <p role="alert" class="error">
      {props.error}
    </p>
  ) : null;

/** "JBSW Y3DP …": the secret in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export function EnrolPage(props: {
  viewer: ConsoleViewer;
  email: string;
  secretBase32: string;
  qrCode: string;
  enforced: boolean;
  next: string | null;
  error?: string;
}) {
  return (
    <ConsoleLayout title="Set up two-factor authentication" viewer={props.viewer} section="security">
      {props.enforced ? (
        <p class="card notice" role="status">
          Your account requires two-factor authentication. Set it up to continue: until then, nothing else in the console or the API is open
          to you.
        </p>
      ) : null}
      <section class="card" aria-labelledby="scan">
        <h2 id="scan">1. Add this account to your authenticator app</h2>
        <p>Scan the QR code with an authenticator app (for example 1Password, Google Authenticator or Authy).</p>
        <img
          src={props.qrCode}
          width="240"
          height="240"
          alt={`QR code that adds ${props.email} to an authenticator app; the same key is shown as text below.`}
        />
        <p>Or type this key in by hand (time-based, 6 digits, every 30 seconds):</p>
        <p>
          <code class="secret" data-secret={props.secretBase32}>
            {grouped(props.secretBase32)}
          </code>
        </p>
      </section>
      <section class="card" aria-labelledby="confirm">
        <h2 id="confirm">2. Type the code the app shows</h2>
        <form method="post" action="/settings/mfa/enable">
          <input type="hidden" name="csrf_token" value={props.viewer.csrfToken} />
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <Problem error={props.error} />
          <CodeInput id="enrol-code" label="6-digit code" />
          <div class="actions">
            <button type="submit">Turn on two-factor authentication</button>
          </div>
        </form>
      </section>
    </ConsoleLayout>
  );
}

export function BackupCodesPage(props: { viewer: ConsoleViewer; codes: string[]; title: string; intro: string; continueTo: string }) {
  return (
    <ConsoleLayout title={props.title} viewer={props.viewer} section="security">
      <section class="card" aria-labelledby="codes">
        <h2 id="codes">Your backup codes</h2>
        <p role="status" class="notice">
          {props.intro}
        </p>
        <p>
          Each code signs you in once when you do not have your authenticator app. Keep them somewhere safe: they are shown only now, and we
          store only a fingerprint of each.
        </p>
        <ul class="backup-codes">
          {props.codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <div class="actions">
          <a class="button" href={props.continueTo}>
            I have saved them, continue
          </a>
        </div>
      </section>
    </ConsoleLayout>
  );
}

export function EnrolledPage(props: {
  viewer: ConsoleViewer;
  enabledAt: string;
  unusedBackupCodes: number;
  error?: { form: 'regenerate' | 'disable'; message: string };
}) {
  const errorOf = (form: 'regenerate' | 'disable') => (props.error?.form === form ? props.error.message : undefined);
  return (
    <ConsoleLayout title="Two-factor authentication" viewer={props.viewer} section="security">
      <section class="card" aria-labelledby="status">
        <h2 id="status">On</h2>
        <p>
          Two-factor authentication is on since <time datetime={props.enabledAt}>{props.enabledAt.slice(0, 10)}</time>. You have{' '}
          {props.unusedBackupCodes} unused backup {props.unusedBackupCodes === 1 ? 'code' : 'codes'}.
        </p>
      </section>
      <section class="card" aria-labelledby="regenerate">
        <h2 id="regenerate">New backup codes</h2>
        <p>Makes 8 new backup codes; the old ones stop working.</p>
        <form method="post" action="/settings/mfa/backup-codes">
          <input type="hidden" name="csrf_token" value={props.viewer.csrfToken} />
          <Problem error={errorOf('regenerate')} />
          <CodeInput id="regenerate-code" label="Current 6-digit code from your app" />
          <div class="actions">
            <button type="submit">Make new backup codes</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="disable">
        <h2 id="disable">Turn off</h2>
        <p>Turning two-factor authentication off signs you out everywhere, this browser included.</p>
        <form method="post" action="/settings/mfa/disable">
          <input type="hidden" name="csrf_token" value={props.viewer.csrfToken} />
          <Problem error={errorOf('disable')} />
          <CodeInput id="disable-code" label="Current code from your app, or a backup code" backup />
          <div class="actions">
            <button type="submit" class="danger">
              Turn off two-factor authentication
            </button>
          </div>
        </form>
      </section>
    </ConsoleLayout>
  );
}

export function SignInCodePage(props: { csrfToken: string; next: string | null; error?: string }) {
  return (
    <ConsoleLayout title="Two-factor authentication">
      <div class="card narrow">
        <form method="post" action="/login/mfa">
          <input type="hidden" name="csrf_token" value={props.csrfToken} />
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <Problem error={props.error} />
          <CodeInput id="code" label="Code from your authenticator app, or a backup code" backup />
          <p class="muted">A backup code works once.</p>
          <div class="actions">
            <button type="submit">Continue</button>
          </div>
        </form>
      </div>
    </ConsoleLayout>
  );
}

export function SignInAgainPage(props: { message: string }) {
  return (
    <ConsoleLayout title="Sign in again">
      <div class="card narrow">
        <p role="alert" class="error">
          {props.message}
        </p>
        <p>
          <a href="/login">Go to sign-in</a>
        </p>
      </div>
    </ConsoleLayout>
  );
}
