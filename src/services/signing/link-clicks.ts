// The signer opened their link from an SMS or WhatsApp message (issue 31 › 7): the page's script reports
// it when its address carries `?via=` (src/shared/link-channel.ts), and the click becomes an entry of
// the submission's audit trail. The GET of the page records nothing: link previews fetch links too.
import { countSubmitterTrail } from '../../db/queries/submissions';
import { nowIso } from '../../lib/time';
import type { PhoneChannel } from '../../shared/link-channel';
import { ChangeSet } from '../submissions/change-set';
import { trail } from '../submissions/submission-events';
import type { StateContext } from '../submissions/submission-state';
import type { Signing } from './signing-session';

/** Clicks kept per signer: enough for every real visit, a bound for a page that reports in a loop. */
export const MAX_LINK_CLICKS = 20;

/** Records the click; false (nothing written) once the signer's trail holds MAX_LINK_CLICKS of them. */
export async function recordLinkClick(ctx: StateContext, signing: Signing, channel: PhoneChannel): Promise<boolean> {
  const { scope, submitter } = signing;
  // Read, then write: a few concurrent reports could pass the cap together, which costs a few rows.
  if ((await countSubmitterTrail(ctx.db, scope.submission.id, submitter.id, 'link_clicked')) >= MAX_LINK_CLICKS) return false;
  const cs = new ChangeSet(ctx.db);
  trail(ctx, cs, scope, submitter, 'link_clicked', { channel }, nowIso());
  await cs.commit(undefined);
  return true;
}
