// The emails that carry a password link: an invitation for a new user, a reset for a forgotten password.
// The link's token lives in the control database; the message row on the account's shard, delivered by
// the messages queue like every other email (src/services/mail).
import type { Account, User } from '../../db/schema/index';
import { shardScope } from '../../db/shards';
import type { Bindings } from '../../env';
import { messageInsert } from '../../db/queries/messages';
import type { Db } from '../../db/client';
import { enqueueMessages } from '../mail/outbox';
import { layoutEmail } from '../mail/render';
import { issuePasswordToken } from './password-tokens';
import { activeUsersWithEmail } from './sign-in';

/** Emails go to accounts other than a request's own (a partner's new account, every account an address signs in to): each is written through its own shard's scope. */
export type PasswordEmailEnv = Bindings;

const TEXTS = {
  invite: {
    kind: 'password_invite',
    subject: (account: string) => `You have been invited to ${account}`,
    paragraphs: (account: string, service: string) => [
      `You have been added to ${account} on ${service}. Choose a password to sign in to the console.`,
      'The link works once and for 7 days.',
    ],
    action: 'Choose your password',
  },
  reset: {
    kind: 'password_reset',
    subject: (account: string) => `Reset your password for ${account}`,
    paragraphs: (account: string) => [
      `Someone asked to reset the password of your ${account} console sign-in. If it was you, choose a new one below.`,
      'The link works once and for 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
    ],
    action: 'Choose a new password',
  },
} as const;

/**
 * Issues a one-time link for `user` and queues the email that carries it to their address. `base` is the
 * origin links use (APP_URL or the request's, src/lib/request.ts › baseUrl).
 */
export async function sendPasswordLink(
  env: PasswordEmailEnv,
  control: Db,
  target: { user: Pick<User, 'id' | 'accountId' | 'email' | 'name'>; account: Pick<Account, 'name' | 'shard'> },
  purpose: 'invite' | 'reset',
  base: string,
): Promise<void> {
  const token = await issuePasswordToken(control, target.user, purpose);
  const link = `${base}/password/set?token=${token}`;
  const texts = TEXTS[purpose];
  const service = env.SERVICE_NAME ?? 'Signing Service';
  await queueAccountEmail(env, target, target.user.email, texts.kind, {
    subject: texts.subject(target.account.name),
    paragraphs: [...texts.paragraphs(target.account.name, service)],
    action: { label: texts.action, url: link },
  });
}

/**
 * Writes one console email (laid out with the account's name) as a message row on the account's shard
 * and queues its delivery, as every email is sent (src/services/mail).
 */
export async function queueAccountEmail(
  env: PasswordEmailEnv,
  target: { user: Pick<User, 'accountId'>; account: Pick<Account, 'name' | 'shard'> },
  recipient: string,
  kind: string,
  content: { subject: string; paragraphs: string[]; action: { label: string; url: string } },
): Promise<void> {
  const email = layoutEmail({ companyName: target.account.name, serviceName: env.SERVICE_NAME ?? 'Signing Service' }, content);
  const { db, queues } = shardScope(env, target.account.shard);
  const [row] = await messageInsert(db, {
    accountId: target.user.accountId,
    channel: 'email',
    kind,
    recipient,
    subject: email.subject,
    text: email.text,
    html: email.html,
  });
  // A lost queue message is re-sent by the messages sweep (src/scheduled/messages-sweep.ts).
  await enqueueMessages(queues.messages, [row.id]).catch((err) => console.error(`enqueue ${kind} email failed`, err));
}

/**
 * /password/forgot, after its throttle: the same step whether or not the email signs in anywhere. The
 * lookup and the emails run after the answer (`waitUntil`), so the response neither waits for a token
 * insert, a message row and a queue send when the email is known, nor returns sooner when it is not: its
 * time says nothing about the address (no account enumeration by timing).
 */
export function requestPasswordReset(
  env: PasswordEmailEnv,
  control: Db,
  email: string,
  base: string,
  waitUntil: (work: Promise<unknown>) => void,
): void {
  waitUntil(
    (async () => {
      const targets = await activeUsersWithEmail(control, email);
      for (const target of targets) await sendPasswordLink(env, control, target, 'reset', base);
    })().catch((err) => console.error('password reset links could not be sent:', err)),
  );
}
