// The builder framed by an integrator (/embed/builder/{id}, issue 15 › 4): it tells the embedding page
// what happens as browser messages, each under `signing-service:<event>` and the legacy `sign:<event>`
// (like the signing form), sent only to the embedding origin and only when the account allows it.
// Events: `load` (the builder is interactive), `saved` (a version was stored), `resize` (for auto-height).
const MESSAGE_PREFIXES = ['signing-service', 'sign'] as const;

export type EmbedHost = { post(event: string, data?: Record<string, unknown>): void };

/** The framing origin when it is one of `allowed` (ancestorOrigins, else the referrer of the first load). */
function embeddingOrigin(allowed: readonly string[]): string | null {
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

export function embedHost(templateId: string): EmbedHost {
  let allowed: string[] = [];
  try {
    allowed = JSON.parse(document.getElementById('embed-origins')?.textContent ?? '[]') as string[];
  } catch {
    allowed = [];
  }
  const target = embeddingOrigin(allowed);
  const post = (event: string, data: Record<string, unknown> = {}) => {
    if (!target) return;
    for (const prefix of MESSAGE_PREFIXES) window.parent.postMessage({ type: `${prefix}:${event}`, event, data: { template_id: templateId, ...data } }, target);
  };
  let last = 0;
  const sendHeight = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    post('resize', { height });
  };
  if (target) new ResizeObserver(sendHeight).observe(document.body);
  return { post };
}

/** The token from the page's address, which is then cleared from it (and from history). */
export function takeTokenFromUrl(): string {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  window.history.replaceState(null, '', window.location.pathname);
  return token;
}
