// Browser messages from a framed signing page to the page that frames it (decisions.md › Embedding):
// each event twice, `signing-service:<event>` and the legacy `sign:<event>`, sent only to the embedding
// origin and only when that origin is one the account allows (the list is rendered into the page).
import type { EmbedData } from '../embed-data';

export const MESSAGE_PREFIXES = ['signing-service', 'sign'] as const;

/**
 * The origin framing this page, when it is an allowed one. Chromium and Safari say it in
 * location.ancestorOrigins; elsewhere the referrer of the frame's first load names it (the host page's
 * referrer policy decides whether it is sent; without it no message goes out). Never '*': the payload
 * names the submission.
 */
export function embeddingOrigin(allowed: readonly string[]): string | null {
  if (window.parent === window) return null;
  const ancestors = window.location.ancestorOrigins;
  let origin: string | null = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  if (!origin && document.referrer) {
    try {
      origin = new URL(document.referrer).origin;
    } catch {
      origin = null;
    }
  }
  return origin && allowed.includes(origin) ? origin : null;
}

function readEmbedData(): EmbedData | null {
  const raw = document.getElementById('embed-data')?.textContent;
  return raw ? (JSON.parse(raw) as EmbedData) : null;
}

const embed = readEmbedData();
const target = embed ? embeddingOrigin(embed.origins) : null;

/** Posts `event` under both prefixes to the embedding page; `extra` adds to the page's own data. */
export function postToHost(event: string, extra: Record<string, unknown> = {}): void {
  if (!embed || !target) return;
  const data = { submission_id: embed.submission_id, submitter_id: embed.submitter_id, slug: embed.slug, status: embed.status, submission_status: embed.submission_status, ...extra };
  for (const prefix of MESSAGE_PREFIXES) window.parent.postMessage({ type: `${prefix}:${event}`, event, data }, target);
}

/** Keeps the host told of the page's height, so the embedding element can size its frame. */
function reportHeight(): void {
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    postToHost('resize', { height });
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

/** On every page: `load`, then the state this page shows (completed, declined, expired) when it is one. */
export function announcePage(): void {
  if (!embed || !target) return;
  postToHost('load');
  if (embed.event !== 'load') postToHost(embed.event);
  reportHeight();
}
