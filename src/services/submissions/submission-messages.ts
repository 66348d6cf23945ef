// The messages a submission's transitions queue (invitations, reminders, expiry notices, completion
// copies): what they are composed from, and their rows added to the transition's ChangeSet.
import { linkBaseOf } from './links';
import type { Db } from '../../db/client';
import { messageInsert } from '../../db/queries/messages';
import type { Account, Submitter } from '../../db/schema/index';
import type { MessageKind } from '../mail/compose';
import type { ChangeSet } from './change-set';
import { messagesFor, type Channels, type MessageSource } from './notifications';
import type { SubmissionScope } from './submission-scope';

/** What composing messages reads from a transition's context (StateContext). */
export type MessagingContext = { db: Db; account: Pick<Account, 'id' | 'name' | 'locale'>; serviceName: string };

/** The submission, template and branding the scope's messages are composed from. */
export function messageSource(ctx: MessagingContext, scope: SubmissionScope): MessageSource {
  return {
    account: ctx.account,
    serviceName: ctx.serviceName,
    submission: scope.submission,
    linkBase: linkBaseOf(scope),
    template: { name: scope.template.name, preferences: scope.template.preferences },
    brand: scope.brand,
    domainBranding: scope.linkDomain?.branding,
  };
}

/** Adds the message rows of one kind to one submitter over `channels`; the outbox sends them after the commit. */
export function queueMessages(
  ctx: MessagingContext,
  cs: ChangeSet,
  kind: MessageKind,
  source: MessageSource,
  submitter: Submitter,
  channels: Channels,
): void {
  for (const message of messagesFor(kind, source, submitter, channels)) cs.addMessage(messageInsert(ctx.db, message));
}
