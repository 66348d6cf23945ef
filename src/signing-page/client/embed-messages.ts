// The signing page's messages to the page that frames it (decisions.md › Embedding), through the browser
// kit (src/browser/host-messages.ts): each payload names the submission and the signer, and carries the
// signer as DocuSeal describes a submitter (`submitter`, their own values only) for <docuseal-form>.
import { jsonData } from '../../browser/dom';
import { hostMessenger, reportHeight } from '../../browser/host-messages';
import type { EmbedData } from '../../shared/embed-data';

/** On every page: `load`, then the state this page shows (completed, declined, expired) when it is one. */
export function announcePage(): void {
  const embed = jsonData<EmbedData>('embed-data');
  if (!embed) return;
  const { submission_id, submitter_id, slug, status, submission_status, submitter } = embed;
  const host = hostMessenger(embed.origins, { submission_id, submitter_id, slug, status, submission_status, submitter });
  if (!host) return;
  host.post('load');
  if (embed.event !== 'load') host.post(embed.event);
  reportHeight(host);
}
