// Reports that the signer arrived by a link from an SMS or WhatsApp message (`?via=`, see
// src/shared/link-channel.ts), once: the marker is taken out of the address, so a reload does not count
// again. Reporting is best effort; the page works the same if it fails.
import { channelOfLink, LINK_CHANNEL_PARAM } from '../../shared/link-channel';
import { send } from './api';

export function reportLinkClick(slug: string): void {
  const channel = channelOfLink(window.location.search);
  if (!channel) return;
  const url = new URL(window.location.href);
  url.searchParams.delete(LINK_CHANNEL_PARAM);
  window.history.replaceState(window.history.state, '', url.toString());
  send('POST', `/s/${slug}/link_opened`, { channel }).catch(() => undefined);
}
