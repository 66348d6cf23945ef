// MFA console routes (docs/mfa.md): /settings/mfa (enrol, backup codes, disable) and /login/mfa (the
// second step of signing in). HTML forms posting to these routes; each POST checks origin and CSRF token.
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../app-env';
import type { ConsoleViewer } from '../layout';
import { checkConsoleForm, consoleSession, safeNextPath } from '../../middleware/console-session';
import { capBody } from '../../middleware/body-limit';
import { unusedBackupCodeCount } from '../../db/queries/mfa';
import { ApiError } from '../../lib/errors';
import {
  acceptSecondFactor,
  confirmEnrolment,
  disableMfa,
  pendingEnrolment,
  qrCodeDataUri,
  regenerateBackupCodes,
} from '../../services/identity/mfa';
import { attemptCode, throttledCodeCheck, tooManyWrongCodes } from '../../services/identity/mfa-throttle';
import { endSession, promoteSession } from '../../db/queries/sessions';
import { findSession, mustEnrolMfa, type SignedIn } from '../../services/identity/sessions';
import { clearSessionCookie, readSessionCookie } from '../../middleware/console-session/session-cookie';
import { CONSOLE_CSP } from '../../lib/console-csp';
import { BackupCodesPage, EnrolledPage, EnrolPage, SignInAgainPage, SignInCodePage } from './mfa-pages';

type C = Context<AppEnv>;

/** The MFA forms carry a code, the CSRF token and `next`. */
const CODE_FORM_BYTES = 16 * 1024;

function page(c: C, element: unknown, status: ContentfulStatusCode = 200) {
  return c.html(String(element), status);
}

function viewerOf(signedIn: SignedIn): ConsoleViewer {
  return { user: signedIn.user, account: signedIn.account, csrfToken: signedIn.session.csrfToken };
}

/** A form field as a string ('' when absent or a file). Malformed bodies read as empty forms. */
async function formOf(c: C): Promise<Record<string, string>> {
  let body: Record<string, unknown> = {};
  try {
    body = await c.req.parseBody();
  } catch {
    throw new ApiError(400, 'Send the form as application/x-www-form-urlencoded or multipart/form-data.');
  }
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : '']));
}

/** `next` as given (a safe path), or null when there was none. */
function nextOf(value: string | undefined | null): string | null {
  return value ? safeNextPath(value) : null;
}

async function enrolPage(c: C, signedIn: SignedIn, next: string | null, error?: { message: string; status: ContentfulStatusCode }) {
  const pending = await pendingEnrolment(c.var.control, c.env, signedIn.user);
  return page(
    c,
    <EnrolPage
      viewer={viewerOf(signedIn)}
      email={signedIn.user.email}
      secretBase32={pending.secretBase32}
      qrCode={qrCodeDataUri(pending.uri)}
      enforced={mustEnrolMfa(signedIn)}
      next={next}
      error={error?.message}
    />,
    error?.status ?? 200,
  );
}

async function enrolledPage(
  c: C,
  signedIn: SignedIn,
  error?: { form: 'regenerate' | 'disable'; message: string; status: ContentfulStatusCode },
) {
  const unused = await unusedBackupCodeCount(c.var.control, signedIn.user.id);
  return page(
    c,
    <EnrolledPage viewer={viewerOf(signedIn)} enabledAt={signedIn.user.mfaEnabledAt!} unusedBackupCodes={unused} error={error} />,
    error?.status ?? 200,
  );
}

export function mountMfaConsole(app: Hono<AppEnv>): void {
  // A code and a CSRF token: counted as the body streams, before anything reads it.
  const capCodeForm = capBody({
    maxBytes: CODE_FORM_BYTES,
    message: `The form is too large. Code forms are at most ${CODE_FORM_BYTES / 1024} KB.`,
  });
  for (const path of ['/login/mfa', '/settings/mfa/enable', '/settings/mfa/backup-codes', '/settings/mfa/disable'])
    app.post(path, capCodeForm);

  const settings = consoleSession({ allowEnrolment: true });

  app.get('/settings/mfa', settings, async (c) => {
    const signedIn = c.var.signedIn;
    if (signedIn.user.mfaEnabledAt) return enrolledPage(c, signedIn);
    return enrolPage(c, signedIn, nextOf(c.req.query('next')));
  });

  app.post('/settings/mfa/enable', settings, async (c) => {
    const signedIn = c.var.signedIn;
    const form = await formOf(c);
    checkConsoleForm(c, signedIn, form);
    const next = nextOf(form.next);
    if (signedIn.user.mfaEnabledAt) return c.redirect('/settings/mfa', 303);
    const result = await throttledCodeCheck(c.var.control, c.env, signedIn.user.id, () =>
      confirmEnrolment(c.var.control, c.env, signedIn.user, form.code ?? ''),
    );
    if ('error' in result) return enrolPage(c, signedIn, next, { message: result.error, status: result.status });
    return page(
      c,
      <BackupCodesPage
        viewer={viewerOf(signedIn)}
        codes={result.ok}
        title="Two-factor authentication is on"
        intro="Two-factor authentication is on: from your next sign-in, we ask for a code from your app."
        continueTo={next ?? '/settings/mfa'}
      />,
    );
  });

  app.post('/settings/mfa/backup-codes', settings, async (c) => {
    const signedIn = c.var.signedIn;
    const form = await formOf(c);
    checkConsoleForm(c, signedIn, form);
    if (!signedIn.user.mfaEnabledAt) return c.redirect('/settings/mfa', 303);
    const result = await throttledCodeCheck(c.var.control, c.env, signedIn.user.id, () =>
      regenerateBackupCodes(c.var.control, c.env, signedIn.user, form.code ?? ''),
    );
    if ('error' in result) return enrolledPage(c, signedIn, { form: 'regenerate', message: result.error, status: result.status });
    return page(
      c,
      <BackupCodesPage
        viewer={viewerOf(signedIn)}
        codes={result.ok}
        title="New backup codes"
        intro="Your new backup codes are ready; the old ones no longer work."
        continueTo="/settings/mfa"
      />,
    );
  });

  app.post('/settings/mfa/disable', settings, async (c) => {
    const signedIn = c.var.signedIn;
    const form = await formOf(c);
    checkConsoleForm(c, signedIn, form);
    if (!signedIn.user.mfaEnabledAt) return c.redirect('/settings/mfa', 303);
    const result = await throttledCodeCheck(c.var.control, c.env, signedIn.user.id, () =>
      disableMfa(c.var.control, c.env, signedIn.user, form.code ?? ''),
    );
    if ('error' in result) return enrolledPage(c, signedIn, { form: 'disable', message: result.error, status: result.status });
    // Every session of the user ended with the change, this one included.
    clearSessionCookie(c);
    return c.redirect('/login', 303);
  });

  app.use('/login/mfa', async function signInStepHeaders(c, next) {
    c.header('Content-Security-Policy', CONSOLE_CSP);
    c.header('Cache-Control', 'no-store');
    await next();
  });

  /** The pending sign-in behind the cookie, or where to send the browser instead. */
  async function pendingSignIn(c: C, next: string | null): Promise<SignedIn | Response> {
    const cookie = readSessionCookie(c);
    const found = cookie ? await findSession(c.var.control, cookie) : { miss: 'unknown' as const };
    if ('miss' in found) return c.redirect(next ? `/login?next=${encodeURIComponent(next)}` : '/login', 303);
    if (found.session.stage === 'full') return c.redirect(safeNextPath(next), 303);
    return found;
  }

  async function signInAgain(c: C, signedIn: SignedIn, message: string) {
    await endSession(c.var.control, signedIn.session.id);
    clearSessionCookie(c);
    return page(c, <SignInAgainPage message={message} />, 429);
  }

  app.get('/login/mfa', async (c) => {
    const next = nextOf(c.req.query('next'));
    const pending = await pendingSignIn(c, next);
    if (pending instanceof Response) return pending;
    return page(c, <SignInCodePage csrfToken={pending.session.csrfToken} next={next} />);
  });

  app.post('/login/mfa', async (c) => {
    const form = await formOf(c);
    const next = nextOf(form.next);
    const pending = await pendingSignIn(c, next);
    if (pending instanceof Response) return pending;
    checkConsoleForm(c, pending, form);
    // Counted before the code is checked: a burst of guesses gets at most the budget checked.
    const attempt = await attemptCode(c.var.control, c.env, pending.user.id, () =>
      acceptSecondFactor(c.var.control, c.env, pending.user, form.code ?? ''),
    );
    if ('refusedUntil' in attempt) return signInAgain(c, pending, `${tooManyWrongCodes(attempt.refusedUntil)} Then sign in again.`);
    if ('ok' in attempt) {
      await promoteSession(c.var.control, pending.session.id);
      return c.redirect(safeNextPath(next), 303);
    }
    return page(
      c,
      <SignInCodePage
        csrfToken={pending.session.csrfToken}
        next={next}
        error="That code is not right. Type the current code from your app, or an unused backup code."
      />,
      422,
    );
  });
}
