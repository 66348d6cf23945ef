// The builder framed by an integrator (/embed/builder/{id}, issue 15 › 4): it tells the embedding page
// what happens through the browser kit's host messages (src/browser/host-messages.ts), like the signing
// form. Events: `load` (the builder is interactive), `saved` (a version was stored), `resize` (auto-height).
import { jsonData } from '../../browser/dom';
import { hostMessenger, reportHeight, type HostMessenger } from '../../browser/host-messages';

export function embedHost(templateId: string): HostMessenger {
  const allowed = jsonData<string[]>('embed-origins') ?? [];
  const host = hostMessenger(allowed, { template_id: templateId });
  if (!host) return { post: () => undefined };
  reportHeight(host);
  return host;
}

/** The token from the page's address, which is then cleared from it (and from history). */
export function takeTokenFromUrl(): string {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  window.history.replaceState(null, '', window.location.pathname);
  return token;
}
