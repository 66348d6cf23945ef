// Any-one-of submitters (issue 33 › 2; decisions.md › Order groups and any-of signers): the people a
// submitter names, each reached by their own link, and who among them signed.
import type { Submitter, SubmitterMember } from '../../db/schema/index';

/** The member rows of one submitter, in the order they were named; empty for a submitter of one person. */
export function membersOf(members: readonly SubmitterMember[] | undefined, submitter: Pick<Submitter, 'id'>): SubmitterMember[] {
  return (members ?? []).filter((m) => m.submitterId === submitter.id);
}

/** The submitter as one member acts on it: their contact and their own link; the row stays the submitter's. */
type Person = Pick<Submitter, 'email' | 'name' | 'phone' | 'slug' | 'nameFromSigner' | 'status'>;

export function asMember<S extends Person>(submitter: S, member: Pick<SubmitterMember, 'email' | 'name' | 'phone' | 'slug'>): S {
  return { ...submitter, email: member.email, name: member.name, phone: member.phone, slug: member.slug, nameFromSigner: false };
}

/**
 * Whom a submitter's invitations, reminders and expiry notices go to: each member with their own link,
 * or the submitter itself. Once one member signed, only the submitter (now them) remains to be told.
 */
export function recipientsOf<S extends Person>(
  members: readonly Pick<SubmitterMember, 'email' | 'name' | 'phone' | 'slug'>[],
  submitter: S,
): S[] {
  return members.length > 1 && submitter.status !== 'completed' ? members.map((m) => asMember(submitter, m)) : [submitter];
}
