// Which host names a tenant may add as a custom signing domain (docs/custom-domains.md › Host names).

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Names that never reach a tenant over the internet: loopback and private-use suffixes (RFC 6761, RFC 6762). */
const RESERVED_SUFFIXES = ['localhost', 'internal', 'local', 'invalid', 'home.arpa', 'arpa'];
/**
 * Cloudflare's own hosts, where the service itself may answer: a tenant's pending domain there would
 * have the service refuse its own requests (421) on that host.
 */
const PLATFORM_SUFFIXES = ['workers.dev', 'pages.dev'];

export type HostnameCheck = { hostname: string } | { problem: string };

/**
 * A DNS name of at least two labels (letters, digits, hyphens; ≤ 63 per label, ≤ 253 in all), not an IP
 * address, not a reserved name, and neither the service's own host nor one under it.
 */
export function checkHostname(input: string, serviceHosts: readonly string[]): HostnameCheck {
  const hostname = input.trim().toLowerCase().replace(/\.$/, '');
  if (!hostname) return { problem: "hostname can't be blank." };
  if (hostname.length > 253) return { problem: 'hostname must be at most 253 characters.' };
  if (hostname.includes(':') || /^[0-9.]+$/.test(hostname)) {
    return { problem: `hostname ${hostname} is an IP address; use a DNS name such as sign.example.com.` };
  }
  const labels = hostname.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    return { problem: `hostname ${hostname} is not a valid DNS name; use letters, digits and hyphens, such as sign.example.com.` };
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) {
    return { problem: `hostname ${hostname} is not a valid DNS name; its last label cannot be a number.` };
  }
  const reserved = RESERVED_SUFFIXES.find((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`));
  if (reserved) return { problem: `hostname ${hostname} is a reserved name (.${reserved}) that signers cannot reach.` };
  const platform = PLATFORM_SUFFIXES.find((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`));
  if (platform) return { problem: `hostname ${hostname} is a Cloudflare platform host (.${platform}); use a domain of your own.` };
  const own = serviceHosts.find((host) => host && (hostname === host || hostname.endsWith(`.${host}`)));
  if (own) return { problem: `hostname ${hostname} belongs to the service itself (${own}); use a domain of your own.` };
  return { hostname };
}

/** The host of a URL (APP_URL, the request's own URL) without port, lower-case; null when it is not a URL. */
export function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}
