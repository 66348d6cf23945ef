// The sign-in pages (docs/identity.md › Sign-in): plain HTML forms posting to this origin, each input
// labelled and given its autocomplete purpose, each error a sentence in a `role=alert` paragraph.
import { ConsoleLayout, type ConsoleViewer } from '../layout';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARACTERS } from '../../services/identity/passwords';

function Sentence(props: { error?: string | null; notice?: string | null }) {
  return (
    <>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
    </>
  );
}

export function LoginPage(props: { email?: string; next?: string; error?: string | null; notice?: string | null }) {
  return (
    <ConsoleLayout title="Sign in">
      <div class="card narrow">
        <Sentence error={props.error} notice={props.notice} />
        <form method="post" action="/login">
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ''} />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </form>
        <p>
          <a href="/password/forgot">Forgot your password?</a>
        </p>
      </div>
    </ConsoleLayout>
  );
}

/** After one password matched users of several accounts: one button per account, each a one-time choice. */
export function ChooseAccountPage(props: { choices: { token: string; accountName: string }[]; next?: string }) {
  return (
    <ConsoleLayout title="Choose an account">
      <div class="card narrow">
        <p>Your email and password belong to more than one account. Which one do you want to sign in to?</p>
        {props.choices.map((choice) => (
          <form method="post" action="/login/choose">
            <input type="hidden" name="token" value={choice.token} />
            {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
            <div class="actions">
              <button type="submit">{choice.accountName}</button>
            </div>
          </form>
        ))}
      </div>
    </ConsoleLayout>
  );
}

function NewPasswordFields() {
  return (
    <>
      <label for="password">New password</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="new-password"
        required
        minlength={PASSWORD_MIN_CHARACTERS}
        aria-describedby="password-rules"
      />
      <p id="password-rules" class="muted">
        At least {PASSWORD_MIN_CHARACTERS} characters, at most {PASSWORD_MAX_BYTES} bytes.
      </p>
      <label for="password_confirmation">Repeat the new password</label>
      <input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required />
    </>
  );
}

export function SetPasswordPage(props: { token: string; email: string; error?: string | null }) {
  return (
    <ConsoleLayout title="Choose your password">
      <div class="card narrow">
        <Sentence error={props.error} />
        <form method="post" action="/password/set">
          <input type="hidden" name="token" value={props.token} />
          {/* Lets a password manager file the new password under the right sign-in. */}
          <input type="hidden" name="username" autocomplete="username" value={props.email} />
          <p>
            For <strong>{props.email}</strong>
          </p>
          <NewPasswordFields />
          <div class="actions">
            <button type="submit">Set password</button>
          </div>
        </form>
      </div>
    </ConsoleLayout>
  );
}

/** The page an email-change link opens: one button, so a mail scanner fetching the link changes nothing. */
export function ConfirmEmailPage(props: { token: string; email: string }) {
  return (
    <ConsoleLayout title="Confirm your new email">
      <div class="card narrow">
        <form method="post" action="/email/confirm">
          <input type="hidden" name="token" value={props.token} />
          <p>
            From now on, sign in with <strong>{props.email}</strong>.
          </p>
          <div class="actions">
            <button type="submit">Confirm this email</button>
          </div>
        </form>
      </div>
    </ConsoleLayout>
  );
}

export function ForgotPasswordPage(props: { error?: string | null; notice?: string | null }) {
  return (
    <ConsoleLayout title="Forgot your password?">
      <div class="card narrow">
        <Sentence error={props.error} notice={props.notice} />
        <form method="post" action="/password/forgot">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required />
          <div class="actions">
            <button type="submit">Email me a link</button>
          </div>
        </form>
        <p>
          <a href="/login">Back to sign in</a>
        </p>
      </div>
    </ConsoleLayout>
  );
}

export function ChangePasswordPage(props: { viewer: ConsoleViewer; error?: string | null; notice?: string | null }) {
  return (
    <ConsoleLayout title="Change your password" viewer={props.viewer}>
      <div class="card">
        <Sentence error={props.error} notice={props.notice} />
        <form method="post" action="/settings/password">
          <input type="hidden" name="csrf_token" value={props.viewer.csrfToken} />
          <input type="hidden" name="username" autocomplete="username" value={props.viewer.user.email} />
          <label for="current_password">Current password</label>
          <input id="current_password" name="current_password" type="password" autocomplete="current-password" required />
          <NewPasswordFields />
          <p class="muted">Changing it signs you out everywhere else.</p>
          <div class="actions">
            <button type="submit">Change password</button>
          </div>
        </form>
      </div>
    </ConsoleLayout>
  );
}

/** A page that only says what happened and where to go next (a used link, too many attempts, a refused form). */
export function MessagePage(props: { title: string; sentence: string; link?: { href: string; label: string } }) {
  return (
    <ConsoleLayout title={props.title}>
      <div class="card narrow">
        <p role="alert">{props.sentence}</p>
        {props.link ? (
          <p>
            <a href={props.link.href}>{props.link.label}</a>
          </p>
        ) : null}
      </div>
    </ConsoleLayout>
  );
}
