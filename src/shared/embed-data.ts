// What a signing page tells its script about being embedded (decisions.md › Embedding): the account's
// allowed origins, the event the page stands for and the signer it is about. Shared by the server's
// layout and the page's script (src/signing-page/client/embed-messages.ts).
export type EmbedData = {
  origins: string[];
  event: 'load' | 'completed' | 'declined' | 'expired';
  submission_id: number;
  submitter_id: number;
  slug: string;
  status: string;
  submission_status: string;
  /** The page's own signer as DocuSeal's components describe a submitter (src/signing-page/embed-submitter.ts). */
  submitter: EmbedSubmitter;
};

/**
 * The page's signer, shaped like DocuSeal's submitter (its embed events' `detail`, its webhooks' `data`):
 * this signer's own values only, by field name. `<docuseal-form>` hands it to its listeners as it is.
 */
export type EmbedSubmitter = {
  id: number;
  submission_id: number;
  slug: string;
  email: string | null;
  name: string | null;
  role: string;
  status: string;
  external_id: string | null;
  opened_at: string | null;
  completed_at: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  values: { field: string; value: unknown }[];
  submission: { id: number; status: string; url: string; combined_document_url: string | null; audit_log_url: string | null };
  template: { id: string; name: string };
};
