// The signer a signing page is about, as DocuSeal's embed components describe a submitter (issue 32 › 3;
// docs/embedding.md › DocuSeal's components): the `detail` of `<docuseal-form>`'s events, carried in the
// page's browser messages to an allowed framing origin. Only this signer's own fields and values: what
// other signers entered never reaches their page.
import type { EmbedSubmitter } from '../shared/embed-data';
import { signerFields, type Signing } from '../services/signing/signing-session';

/**
 * `apiBase` names the submission in the API (`url`); `pageOrigin` is where the page is served (on a custom
 * signing domain too), where the signer's own copy downloads once the submission is sealed.
 */
export function embedSubmitter(signing: Signing, { apiBase, pageOrigin }: { apiBase: string; pageOrigin: string }): EmbedSubmitter {
  const { scope, submitter } = signing;
  const { submission, template } = scope;
  const finished = submitter.status === 'completed' && submission.sealedAt !== null;
  return {
    id: submitter.id,
    submission_id: submission.id,
    slug: submitter.slug,
    email: submitter.email,
    name: submitter.name,
    role: submitter.role,
    status: submitter.status,
    external_id: submitter.externalId,
    opened_at: submitter.openedAt,
    completed_at: submitter.completedAt,
    declined_at: submitter.declinedAt,
    decline_reason: submitter.declineReason,
    values: signerFields(signing).map((field) => ({ field: field.name, value: submitter.values[field.uuid] ?? null })),
    submission: {
      id: submission.id,
      status: submission.status,
      url: `${apiBase}/api/submissions/${submission.id}`,
      combined_document_url: finished ? `${pageOrigin}/s/${submitter.slug}/download` : null,
      // The audit trail is a page of the sealed PDF and GET /api/audit_events, not a document of its own.
      audit_log_url: null,
    },
    template: { id: template.publicId, name: template.name },
  };
}
