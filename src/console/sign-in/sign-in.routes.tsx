// Console sign-in pages (docs/identity.md): /login (+ the account chooser), /logout, the password links
// (/password/set, /password/forgot) and /settings/password. Server-rendered forms posting to this origin.
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../app-env';
import { getAccount } from '../../db/queries/accounts';
import { ApiError } from '../../lib/errors';
import { baseUrl, clientIp } from '../../lib/request';
import { checkConsoleForm, consoleSession, safeNextPath } from '../../middleware/console-session';
import { capBody } from '../../middleware/body-limit';
import { endSession } from '../../db/queries/sessions';
import { findSession } from '../../services/identity/sessions';
import { readSessionCookie, clearSessionCookie, signInResponseSession } from '../../middleware/console-session/session-cookie';
import { describePasswordProblem, isLongerThanAnyPassword, verifyPassword } from '../../services/identity/passwords';
import {
  consumePasswordToken,
  findPasswordToken,
  issuePasswordToken,
  LINK_USED,
  setUserPassword,
} from '../../services/identity/password-tokens';
import { requestPasswordReset } from '../../services/identity/password-emails';
import { confirmEmailChange, findEmailChange } from '../../services/identity/email-change';
import {
  accountsRefusingSignIn,
  activeUsersWithEmail,
  countAccountFailures,
  takeSignInAttempt,
  usersMatchingPassword,
  WRONG_CREDENTIALS,
  type SignInCandidate,
} from '../../services/identity/sign-in';
import { CONSOLE_CSP } from '../../lib/console-csp';
import {
  ChangePasswordPage,
  ChooseAccountPage,
  ConfirmEmailPage,
  ForgotPasswordPage,
  LoginPage,
  MessagePage,
  SetPasswordPage,
} from './pages';

type C = Context<AppEnv>;

/** The sign-in forms carry a few short fields; anything bigger is not one of them. */
export const FORM_BYTES = 16 * 1024;

/** Counted as the body streams (a chunked body has no Content-Length to trust). */
export const capSignInForm = () =>
  capBody({ maxBytes: FORM_BYTES, message: `The form is too large. Sign-in forms are at most ${FORM_BYTES / 1024} KB.` });

const LOGIN_NOTICES: Record<string, string> = {
  idle: 'Your session ended after 30 minutes without activity; sign in again.',
  suspended: 'This account is suspended; contact your operator.',
  signed_out: 'You are signed out.',
  password_set: 'Your password is set; sign in with it.',
};

function page(c: C, element: unknown, status: ContentfulStatusCode = 200, headers: Record<string, string> = {}) {
  c.header('Content-Security-Policy', CONSOLE_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('X-Frame-Options', 'DENY');
  // The password links carry their token in the URL: never send it on in a Referer.
  c.header('Referrer-Policy', 'no-referrer');
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.html(String(element), status);
}

/**
 * Login CSRF: a sign-in form only counts when it comes from a page of this origin, so another site cannot
 * sign a visitor in as the attacker. Browsers send Origin with every form POST; Sec-Fetch-Site covers a
 * browser that sends `Origin: null`.
 */
function fromThisOrigin(c: C): boolean {
  const origin = c.req.header('Origin');
  if (origin && origin !== 'null') return origin === new URL(c.req.url).origin;
  return c.req.header('Sec-Fetch-Site') === 'same-origin';
}

/** The form's string fields; files and repeated names are ignored. The body was capped by capSignInForm. */
async function formFields(c: C): Promise<Record<string, string>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return {};
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

function refusedForm(c: C) {
  return page(
    c,
    <MessagePage
      title="Sign in"
      sentence="This form must be sent from this site's own sign-in page; open it and try again."
      link={{ href: '/login', label: 'Open the sign-in page' }}
    />,
    403,
  );
}

function tooManyAttempts(c: C, wait: number) {
  const minutes = Math.ceil(wait / 60);
  return page(
    c,
    <MessagePage
      title="Too many attempts"
      sentence={`Too many sign-in attempts from this address or for this email; try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`}
    />,
    429,
    { 'Retry-After': String(wait) },
  );
}

/** Signs in a user whose password (or account choice) was just proven: the MFA step next when they have MFA. */
async function completeSignIn(c: C, candidate: SignInCandidate, next: string | undefined) {
  const target = safeNextPath(next);
  // A session the browser already held (another user's, or a stale one) ends here: one browser, one session.
  const previous = readSessionCookie(c);
  if (previous) {
    const found = await findSession(c.var.control, previous);
    if (!('miss' in found)) await endSession(c.var.control, found.session.id);
  }
  if (candidate.user.mfaEnabledAt) {
    await signInResponseSession(c, candidate.user, 'mfa');
    return c.redirect(`/login/mfa?next=${encodeURIComponent(target)}`, 303);
  }
  await signInResponseSession(c, candidate.user, 'full');
  return c.redirect(target, 303);
}

export function createSignInRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.onError((err, c) => {
    if (err instanceof ApiError && err.status < 500) {
      return page(c, <MessagePage title="Something is not right" sentence={err.message} />, err.status as ContentfulStatusCode);
    }
    throw err;
  });

  for (const path of ['/login', '/login/choose', '/logout', '/password/set', '/password/forgot', '/email/confirm', '/settings/password'])
    app.post(path, capSignInForm());

  app.get('/login', (c) => {
    const reason = c.req.query('reason');
    return page(c, <LoginPage next={c.req.query('next')} notice={reason ? LOGIN_NOTICES[reason] : null} />);
  });

  app.post('/login', async (c) => {
    if (!fromThisOrigin(c)) return refusedForm(c);
    const form = await formFields(c);
    const email = (form.email ?? '').trim();
    const password = form.password ?? '';
    const next = form.next;
    if (!email || !password) return page(c, <LoginPage email={email} next={next} error="Enter your email and your password." />, 422);
    const wait = await takeSignInAttempt(c.env, clientIp(c.req.raw), email);
    if (wait !== null) return tooManyAttempts(c, wait);
    // Per account: failed sign-ins against any of its users, so a password sprayed over one account's
    // users from many addresses is refused before any password is checked. Only that account's users
    // are held back: another account of the same person (whose admin might fill its own account's
    // count) does not lock them out of this one. Only users with a password are candidates at all.
    const withPassword = await activeUsersWithEmail(c.var.control, email, { withPassword: true });
    const accountIds = withPassword.map((candidate) => candidate.account.id);
    const { refusing, wait: accountWait } = await accountsRefusingSignIn(c.env, accountIds);
    const candidates = withPassword.filter((candidate) => !refusing.has(candidate.account.id));
    if (withPassword.length > 0 && candidates.length === 0) return tooManyAttempts(c, accountWait!);
    const matched = isLongerThanAnyPassword(password) ? [] : await usersMatchingPassword(c.var.control, email, password, candidates);
    if (matched.length === 0) {
      const wait = await countAccountFailures(c.env, accountIds);
      if (wait !== null) return tooManyAttempts(c, wait);
      return page(c, <LoginPage email={email} next={next} error={WRONG_CREDENTIALS} />, 401);
    }
    if (matched.length === 1) return completeSignIn(c, matched[0], next);
    // One password, several accounts: the person picks one; each button is a one-time 5-minute choice.
    const choices = await Promise.all(
      matched.map(async (m) => ({ token: await issuePasswordToken(c.var.control, m.user, 'sign_in_choice'), accountName: m.account.name })),
    );
    return page(c, <ChooseAccountPage choices={choices} next={next} />);
  });

  app.post('/login/choose', async (c) => {
    if (!fromThisOrigin(c)) return refusedForm(c);
    const form = await formFields(c);
    const found = await findPasswordToken(c.var.control, form.token ?? '', ['sign_in_choice']);
    const account = found && (await getAccount(c.var.control, found.user.accountId));
    if (!found || !account || account.suspendedAt || !(await consumePasswordToken(c.var.control, found.token.id))) {
      return page(c, <LoginPage next={form.next} error="That choice has expired; sign in again." />, 410);
    }
    return completeSignIn(c, { user: found.user, account }, form.next);
  });

  app.post('/logout', async (c) => {
    const cookie = readSessionCookie(c);
    const found = cookie ? await findSession(c.var.control, cookie) : null;
    if (!found || 'miss' in found) {
      clearSessionCookie(c);
      return c.redirect('/login?reason=signed_out', 303);
    }
    checkConsoleForm(c, found, await formFields(c));
    await endSession(c.var.control, found.session.id);
    clearSessionCookie(c);
    return c.redirect('/login?reason=signed_out', 303);
  });

  app.get('/password/set', async (c) => {
    const token = c.req.query('token') ?? '';
    const found = await findPasswordToken(c.var.control, token, ['invite', 'reset']);
    if (!found) return linkUsed(c);
    return page(c, <SetPasswordPage token={token} email={found.user.email} />);
  });

  app.post('/password/set', async (c) => {
    if (!fromThisOrigin(c)) return refusedForm(c);
    const form = await formFields(c);
    const token = form.token ?? '';
    const found = await findPasswordToken(c.var.control, token, ['invite', 'reset']);
    if (!found) return linkUsed(c);
    const password = form.password ?? '';
    const problem =
      describePasswordProblem(password) ?? (password !== form.password_confirmation ? 'The two passwords are not the same.' : null);
    if (problem) return page(c, <SetPasswordPage token={token} email={found.user.email} error={problem} />, 422);
    try {
      await setUserPassword(c.var.control, found.user, password, { viaToken: found.token.id });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return linkUsed(c);
      throw err;
    }
    // To the sign-in page rather than signed in: the new password is proven once, and MFA is asked as always.
    clearSessionCookie(c);
    return c.redirect('/login?reason=password_set', 303);
  });

  // A new email an admin set (docs/identity.md › Changing an email): the link's holder confirms it.
  app.get('/email/confirm', async (c) => {
    const token = c.req.query('token') ?? '';
    const change = await findEmailChange(c.var.control, token);
    if (!change) return emailLinkUsed(c);
    return page(c, <ConfirmEmailPage token={token} email={change.pendingEmail} />);
  });

  app.post('/email/confirm', async (c) => {
    if (!fromThisOrigin(c)) return refusedForm(c);
    const form = await formFields(c);
    const change = await findEmailChange(c.var.control, form.token ?? '');
    if (!change) return emailLinkUsed(c);
    await confirmEmailChange(c.var.control, change);
    return page(
      c,
      <MessagePage
        title="Email confirmed"
        sentence={`Your email is now ${change.pendingEmail}; sign in with it from now on.`}
        link={{ href: '/login', label: 'Sign in' }}
      />,
    );
  });

  app.get('/password/forgot', (c) => page(c, <ForgotPasswordPage />));

  app.post('/password/forgot', async (c) => {
    if (!fromThisOrigin(c)) return refusedForm(c);
    const form = await formFields(c);
    const email = (form.email ?? '').trim();
    if (!email || email.length > 255) return page(c, <ForgotPasswordPage error="Enter the email you sign in with." />, 422);
    // Counted like sign-in attempts, so the form cannot be used to flood an inbox.
    const wait = await takeSignInAttempt(c.env, clientIp(c.req.raw), email);
    if (wait !== null) return tooManyAttempts(c, wait);
    // The same work and the same answer whether or not the email is known (no account enumeration):
    // who it reaches is looked up after the answer.
    requestPasswordReset(c.env, c.var.control, email, baseUrl(c.req.raw, c.env.APP_URL), (work) => c.executionCtx.waitUntil(work));
    return page(
      c,
      <ForgotPasswordPage notice="If that email signs in here, we have sent it a link to choose a new password. The link works for 1 hour." />,
    );
  });

  app.get('/settings/password', consoleSession(), (c) =>
    page(c, <ChangePasswordPage viewer={viewerOf(c)} notice={c.req.query('changed') ? 'Your password is changed.' : null} />),
  );

  app.post('/settings/password', consoleSession(), async (c) => {
    const signedIn = c.var.signedIn;
    const form = await formFields(c);
    checkConsoleForm(c, signedIn, form);
    const viewer = viewerOf(c);
    const wait = await takeSignInAttempt(c.env, clientIp(c.req.raw), signedIn.user.email);
    if (wait !== null) return tooManyAttempts(c, wait);
    const password = form.password ?? '';
    const problem =
      describePasswordProblem(password) ?? (password !== form.password_confirmation ? 'The two new passwords are not the same.' : null);
    if (problem) return page(c, <ChangePasswordPage viewer={viewer} error={problem} />, 422);
    if (!(await verifyPassword(form.current_password ?? '', signedIn.user.passwordHash)).ok) {
      return page(c, <ChangePasswordPage viewer={viewer} error="The current password is wrong." />, 422);
    }
    // Every session of the user ends, this one included; this browser gets a fresh one (no fixation).
    await setUserPassword(c.var.control, signedIn.user, password);
    await signInResponseSession(c, signedIn.user, 'full');
    return c.redirect('/settings/password?changed=1', 303);
  });

  return app;
}

function viewerOf(c: C) {
  const { user, account, session } = c.var.signedIn;
  return { user, account, csrfToken: session.csrfToken };
}

function emailLinkUsed(c: C) {
  return page(
    c,
    <MessagePage
      title="Link no longer valid"
      sentence="This link has already been used, has expired, or was replaced by a newer one; ask an admin of the account to set the email again."
    />,
    410,
  );
}

function linkUsed(c: C) {
  return page(
    c,
    <MessagePage title="Link no longer valid" sentence={LINK_USED} link={{ href: '/password/forgot', label: 'Ask for a new link' }} />,
    410,
  );
}
