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
};
