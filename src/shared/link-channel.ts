// The phone channels a signer's link and codes can travel by, and how a link says which one brought the
// signer: `?via=sms` or `?via=whatsapp`, read by the signing page's script to record the click
// (decisions.md › Phone codes). Shared by the server (messages) and the page's script.
export const PHONE_CHANNELS = ['sms', 'whatsapp'] as const;

export type PhoneChannel = (typeof PHONE_CHANNELS)[number];

export const LINK_CHANNEL_PARAM = 'via';

/** A signing link as sent in a text message over `channel`. */
export function linkVia(link: string, channel: PhoneChannel): string {
  const url = new URL(link);
  url.searchParams.set(LINK_CHANNEL_PARAM, channel);
  return url.toString();
}

/** The channel a page address says brought the signer, or null. */
export function channelOfLink(search: string): PhoneChannel | null {
  const value = new URLSearchParams(search).get(LINK_CHANNEL_PARAM);
  return (PHONE_CHANNELS as readonly string[]).includes(value ?? '') ? (value as PhoneChannel) : null;
}
