// What a new submission announces in the batch that stores it (spec › Events; › Creating a submission):
// submission.created and .sent, form.created and submitter.sent resolved to the new rows' ids, and the
// invitations to whoever is invited now, with their trail rows.
import type { MessageForNewRows } from '../../db/queries/messages';
import type { insertResolvedEventsStatements, insertSubmissionEventsStatements } from '../../db/queries/submissions';
import type { Account, Template } from '../../db/schema/index';
import { formEventData, submissionEventData } from '../webhooks/payloads';
import { chooseLinkDomain, linkBaseOf, type LinkDomain } from './links';
import type { Planned } from './new-submission-rows';
import { recipientsOf } from './any-of';
import { channelsFor, messagesFor, type MessageSource } from './notifications';

/** What announcing reads from the create context (CreateContext). */
export type AnnounceContext = {
  account: Pick<Account, 'id' | 'name' | 'locale'>;
  serviceName: string;
  /** The account's active custom domains, for the links the invitations carry (chooseLinkDomain). */
  linkDomains?: readonly LinkDomain[];
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * Invitations, trail entries and outbox events of a whole create request, written by multi-row inserts
 * after every row they name (each table's rows keep their order, so their ids follow it): one statement
 * per row made a 100-submission request build 900 statements (docs/decisions.md › Issue 30).
 */
export type LaterRows = {
  messages: MessageForNewRows[];
  trail: Parameters<typeof insertSubmissionEventsStatements>[1];
  events: Parameters<typeof insertResolvedEventsStatements>[2];
};

/**
 * Adds the invitations, events and trail rows of `plan` to `later`; `submitters` are its submitter rows
 * as stored, and `invited` the slugs of those invited now (stored as `sent`).
 */
export function announceSubmission(
  ctx: AnnounceContext,
  later: LaterRows,
  template: Template,
  plan: Planned,
  submitters: Planned['submitters'],
  invited: ReadonlySet<string>,
  at: string,
): void {
  const accountId = ctx.account.id;
  const slug = plan.submission.slug;
  const templateRef = { id: template.publicId, name: template.name };

  const payloadSubmission = (status: string) =>
    submissionEventData({
      submission: {
        id: 0,
        slug,
        status,
        created_at: at,
        completed_at: null,
        template_id: template.publicId,
        metadata: plan.submission.metadata,
        submitters: [],
        documents: [],
      },
      template: templateRef,
    });
  const resolved = {
    submissionIds: { '$.submission.id': slug },
    submittersArray: { path: '$.submission.submitters', submissionSlug: slug },
  };
  later.events.push({ event: 'submission.created', data: payloadSubmission(plan.submission.status), refs: resolved });

  // The invitation's link and branding: the custom domain that applies now (the row keeps the service's base).
  const linkDomain = chooseLinkDomain(template.preferences, ctx.linkDomains ?? []);
  const source: MessageSource = {
    account: ctx.account,
    serviceName: ctx.serviceName,
    submission: { ...plan.submission, id: 0 },
    linkBase: linkBaseOf({ submission: plan.submission, linkDomain }),
    template: { name: template.name, preferences: template.preferences },
    invitation: plan.message,
    brand: plan.brand,
    domainBranding: linkDomain?.branding,
  };
  for (const s of submitters) {
    const formData = (event: 'form.created' | 'submitter.sent') => ({
      event,
      data: formEventData({
        submitter: {
          id: 0,
          uuid: s.uuid,
          email: s.email ?? '',
          name: s.name ?? '',
          role: s.role,
          status: s.status,
          external_id: s.externalId,
          language: s.language,
          metadata: s.metadata,
          opened_at: null,
          completed_at: null,
          declined_at: null,
        },
        submission: { id: 0, slug, status: plan.submission.status, template_id: template.publicId },
        template: templateRef,
      }),
      refs: { submissionIds: { '$.submission.id': slug }, submitterIds: { '$.submitter.id': s.slug } },
    });
    later.events.push(formData('form.created'));
    if (!invited.has(s.slug)) continue;
    // An any-of submitter's people each get their own link (issue 33 › 2).
    for (const person of recipientsOf(
      plan.members.filter((m) => m.submitterSlug === s.slug),
      s,
    )) {
      for (const message of messagesFor('invitation', source, person, channelsFor(plan.submission, person)))
        later.messages.push({ message, submissionSlug: slug, submitterSlug: s.slug });
    }
    later.events.push(formData('submitter.sent'));
    later.trail.push({
      ref: { submissionSlug: slug },
      submitterRef: { submitterSlug: s.slug },
      row: { accountId, action: 'sent', ip: ctx.ip, userAgent: ctx.userAgent, data: {}, at },
    });
  }
  if (plan.submission.status !== 'draft')
    later.events.push({ event: 'submission.sent', data: payloadSubmission('pending'), refs: resolved });
}
