// Browser messages from a framed page (the signing page, the embedded builder) to the page that frames it
// (decisions.md › Embedding): each event twice, `signing-service:<event>` and the legacy `sign:<event>`,
// sent only to the embedding origin and only when that origin is one the account allows (the list is
// rendered into the page; the check is ./framing-origin.ts).

import { framingOrigin } from './framing-origin';

const MESSAGE_PREFIXES = ['signing-service', 'sign'] as const;

export type HostMessenger = { post(event: string, extra?: Record<string, unknown>): void };

/**
 * Messages to the framing page, each payload `base` plus the event's own data; null when this page is
 * not framed by one of `allowed`, so that nothing is ever sent then.
 */
export function hostMessenger(allowed: readonly string[], base: Record<string, unknown>): HostMessenger | null {
  const facts = { framed: window.parent !== window, ancestorOrigins: window.location.ancestorOrigins, referrer: document.referrer };
  const target = framingOrigin(facts, allowed);
  if (!target) return null;
  return {
    post(event, extra = {}) {
      const data = { ...base, ...extra };
      for (const prefix of MESSAGE_PREFIXES) window.parent.postMessage({ type: `${prefix}:${event}`, event, data }, target);
    },
  };
}

/** Keeps the host told of the page's height (`resize`), so the embedding element can size its frame. */
export function reportHeight(host: HostMessenger): void {
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    host.post('resize', { height });
  };
  new ResizeObserver(send).observe(document.body);
  send();
}
