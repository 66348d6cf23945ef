// require_email_2fa (spec › Template preferences; Limits › Email 2FA code) and require_phone_2fa
// (issue 31 › 7): before the form opens, the signer proves they read their email, or their phone's SMS
// or WhatsApp messages, with a 6-digit code, valid 10 minutes, at most 5 wrong tries per code and 5
// codes an hour, whichever channel it went by. Codes are stored hashed; a correct code opens a browser
// session whose token (also stored hashed) travels in an HttpOnly cookie scoped to the signing link.
// Both limits are taken atomically in D1 (an attempt before the comparison, a send inside the batch that
// writes the code), so concurrent requests count like sequential ones; a delivered code is redacted from
// its message row.
import { messageInsert } from '../../db/queries/messages';
import {
  consumeAttempt,
  findSession,
  insertVerificationWithinLimitStatement,
  latestVerification,
  markVerified,
} from '../../db/queries/signing';
import type { Submitter } from '../../db/schema/index';
import { ApiError, unprocessable } from '../../lib/errors';
import { sha256Hex, timingSafeEqualString } from '../../lib/crypto';
import { randomBase62 } from '../../lib/random';
import { nowIso } from '../../lib/time';
import { emailMessage, smsMessage } from '../mail/outbox';
import type { PhoneChannel } from '../../shared/link-channel';
import { CODE_METHODS } from '../signature-levels/signer-identity';
import { messageLocale } from '../submissions/notifications';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE } from '../../shared/i18n/locales';
import type { Translate } from '../../shared/i18n/translator';
import { ChangeSet } from '../submissions/change-set';
import { linkBaseOf, signingUrl } from '../submissions/links';
import { messageBranding } from '../submissions/notifications';
import { trail } from '../submissions/submission-events';
import type { StateContext } from '../submissions/submission-state';
import type { Signing } from './signing-session';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_ATTEMPTS = 5;
export const MAX_CODES_PER_HOUR = 5;
/** How long a verified browser stays verified for this link. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export type CodeChannel = 'email' | PhoneChannel;

/**
 * Where the code that opens the form goes, or null when none is asked for: the phone when the template
 * or the submitter asks for a phone code (by WhatsApp for a submitter with send_whatsapp, else SMS),
 * else the email when the template asks for an email code. Asked for both, the phone code is the one:
 * the link itself usually arrived by email, so the phone is the factor that adds something.
 */
export function codeChannel(signing: Pick<Signing, 'scope' | 'submitter'>): CodeChannel | null {
  const { scope, submitter } = signing;
  if (scope.template.preferences.require_phone_2fa === true || submitter.requirePhone2fa)
    return submitter.sendWhatsapp ? 'whatsapp' : 'sms';
  return scope.template.preferences.require_email_2fa === true ? 'email' : null;
}

/** A session proves the factor it was opened with: an email code never opens a form that asks for the phone. */
function sameFactor(a: string, b: CodeChannel): boolean {
  return a === b || (a !== 'email' && b !== 'email');
}

/** A uniformly random 6-digit code (rejection sampling avoids modulo bias). */
export function newCode(): string {
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    // 4_294_000_000 is the largest multiple of 10^6 below 2^32.
    if (n < 4_294_000_000) return String(n % 1_000_000).padStart(6, '0');
  }
}

function codeHash(submitterId: number, code: string): Promise<string> {
  return sha256Hex(`signing-code:${submitterId}:${code}`);
}

/** Whether the browser's session cookie verifies this submitter over `channel`'s factor. */
export async function hasVerifiedSession(
  ctx: Pick<StateContext, 'db'>,
  submitter: Pick<Submitter, 'id'>,
  token: string | undefined,
  channel: CodeChannel,
): Promise<boolean> {
  if (!token || !/^[0-9A-Za-z]{32}$/.test(token)) return false;
  const row = await findSession(ctx.db, submitter.id, await sha256Hex(token));
  return !!row?.verifiedAt && Date.parse(row.verifiedAt) + SESSION_LIFETIME_MS > Date.now() && sameFactor(row.channel, channel);
}

/** Sends a fresh code over `channel` (the messages outbox, kind verification_code). */
export async function sendCode(
  ctx: StateContext,
  signing: Signing,
  channel: CodeChannel,
  t: Translate = translatorFor(DEFAULT_LOCALE),
): Promise<void> {
  const { scope, submitter } = signing;
  if (channel === 'email' && !submitter.email) throw unprocessable(t('verify.error.no_email'));
  if (channel !== 'email' && !submitter.phone) throw unprocessable(t('verify.error.no_phone'));
  const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  const code = newCode();
  const at = nowIso();
  const source = {
    account: ctx.account,
    serviceName: ctx.serviceName,
    template: { name: scope.template.name, preferences: scope.template.preferences },
    brand: scope.brand,
    domainBranding: scope.linkDomain?.branding,
  };
  const context = {
    branding: messageBranding(source),
    submitter: { name: submitter.name, email: submitter.email ?? '', link: signingUrl(linkBaseOf(scope), submitter.slug) },
    template: { name: scope.template.name },
    submission: { expireAt: scope.submission.expireAt },
    code,
    locale: messageLocale({ ...source, submission: scope.submission }, submitter),
  };
  const refs = { accountId: ctx.account.id, submissionId: scope.submission.id, submitterId: submitter.id };
  const message =
    channel === 'email'
      ? emailMessage('verification_code', context, refs)
      : smsMessage('verification_code', context, submitter.phone!, refs, channel);
  const cs = new ChangeSet(ctx.db);
  // The hourly cap is decided by the insert itself: past it, the guard rolls back the message too.
  cs.guarded(
    insertVerificationWithinLimitStatement(
      ctx.db,
      {
        accountId: ctx.account.id,
        submitterId: submitter.id,
        codeHash: await codeHash(submitter.id, code),
        channel,
        expiresAt: new Date(Date.now() + CODE_LIFETIME_MS).toISOString(),
        createdAt: at,
      },
      since,
      MAX_CODES_PER_HOUR,
    ),
  );
  cs.addMessage(messageInsert(ctx.db, message));
  trail(ctx, cs, scope, submitter, 'verification_code_sent', channel === 'email' ? {} : { channel }, at);
  await cs.commit(ctx.messagesQueue, () => new ApiError(429, t('verify.error.too_many_sent'), {}, { 'Retry-After': '600' }));
}

/**
 * Checks a code against the latest one sent. An attempt is taken first (atomically, see consumeAttempt),
 * so only MAX_ATTEMPTS comparisons are ever made per code, however many guesses arrive at once. Right:
 * returns a new session token (the caller sets it as a cookie) and the submitter's verification method
 * becomes email_2fa, sms_2fa or whatsapp_2fa by the channel the code went by. A code sent by another
 * channel than the form asks for now (its preferences changed since) is not accepted. Wrong or expired:
 * 422 with a sentence; no attempt left: 429.
 */
export async function verifyCode(
  ctx: StateContext,
  signing: Signing,
  channel: CodeChannel,
  code: string,
  t: Translate = translatorFor(DEFAULT_LOCALE),
): Promise<string> {
  const { scope, submitter } = signing;
  const row = await latestVerification(ctx.db, submitter.id);
  if (!row || row.verifiedAt || !sameFactor(row.channel, channel)) throw unprocessable(t('verify.error.request_first'));
  if (Date.parse(row.expiresAt) <= Date.now()) throw unprocessable(t('verify.error.expired'));
  const attempts = await consumeAttempt(ctx.db, row.id, MAX_ATTEMPTS, nowIso());
  if (attempts === null) throw new ApiError(429, t('verify.error.too_many_wrong'));
  const given = /^\d{6}$/.test(code.trim()) ? code.trim() : '';
  if (!given || !timingSafeEqualString(await codeHash(submitter.id, given), row.codeHash)) {
    const left = MAX_ATTEMPTS - attempts;
    if (left === 0) throw unprocessable(t('verify.error.wrong_last'));
    throw unprocessable(t('verify.error.wrong', { left }));
  }
  const token = randomBase62(32);
  const at = nowIso();
  const verified = { sessionHash: await sha256Hex(token), method: CODE_METHODS[row.channel as CodeChannel] ?? CODE_METHODS.email, at };
  if (!(await markVerified(ctx.db, row.id, submitter.id, verified))) throw unprocessable(t('verify.error.request_first'));
  const cs = new ChangeSet(ctx.db);
  if (row.channel === 'email') trail(ctx, cs, scope, submitter, 'email_verified', {}, at);
  else trail(ctx, cs, scope, submitter, 'phone_verified', { channel: row.channel }, at);
  await cs.commit(undefined);
  return token;
}
