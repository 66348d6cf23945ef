// Cloudflare for SaaS custom hostnames: the API that routes a tenant's host name to this Worker's zone
// and issues its certificate (POST/GET/DELETE /zones/{zone}/custom_hostnames). Production talks to
// Cloudflare; tests and local development point CF_API_BASE at an imitation (test/global-setup).

export const DEFAULT_CF_API_BASE = 'https://api.cloudflare.com/client/v4';
const TIMEOUT_MS = 10_000;

export type CloudflareConfig = { base: string; token: string; zoneId: string };

export type CustomHostname = { id: string; hostname: string; status: string; sslStatus: string | null };

/** Cloudflare refused the request (4xx): the message says why, and trying again will not help. */
export class CloudflareRefused extends Error {
  override name = 'CloudflareRefused';
  constructor(
    message: string,
    /** Cloudflare's error codes, e.g. 1406 (the host name already exists in the zone). */
    readonly codes: number[] = [],
  ) {
    super(message);
  }
}

/** Cloudflare's code for a custom hostname the zone already has. */
export const DUPLICATE_CUSTOM_HOSTNAME = 1406;

/** Cloudflare could not be reached or failed (5xx, timeout): worth trying again later. */
export class CloudflareUnavailable extends Error {
  override name = 'CloudflareUnavailable';
}

/** The configuration, or null when CF_API_TOKEN or CF_ZONE_ID is missing (activation is then refused). */
export function cloudflareConfig(env: { CF_API_BASE?: string; CF_API_TOKEN?: string; CF_ZONE_ID?: string }): CloudflareConfig | null {
  const token = env.CF_API_TOKEN?.trim();
  const zoneId = env.CF_ZONE_ID?.trim();
  if (!token || !zoneId) return null;
  return { base: (env.CF_API_BASE?.trim() || DEFAULT_CF_API_BASE).replace(/\/+$/, ''), token, zoneId };
}

type Envelope = {
  success?: boolean;
  errors?: { code?: number; message?: string }[];
  result?: { id?: string; hostname?: string; status?: string; ssl?: { status?: string } | null } | null;
};

async function call(config: CloudflareConfig, method: string, path: string, body?: unknown): Promise<Envelope | null> {
  let response: Response;
  try {
    response = await fetch(`${config.base}/zones/${encodeURIComponent(config.zoneId)}/custom_hostnames${path}`, {
      method,
      headers: { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new CloudflareUnavailable('Cloudflare did not answer');
  }
  if (method === 'DELETE' && response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    throw new CloudflareUnavailable(`Cloudflare answered HTTP ${response.status} without JSON`);
  }
  if (response.status >= 500) throw new CloudflareUnavailable(`Cloudflare answered HTTP ${response.status}`);
  if (!response.ok || envelope.success === false) {
    const message =
      envelope.errors
        ?.map((e) => e.message)
        .filter(Boolean)
        .join('; ') || `HTTP ${response.status}`;
    throw new CloudflareRefused(
      message,
      (envelope.errors ?? []).flatMap((e) => (typeof e.code === 'number' ? [e.code] : [])),
    );
  }
  return envelope;
}

function hostnameOf(envelope: Envelope | null): CustomHostname {
  const result = envelope?.result;
  if (!result?.id) throw new CloudflareUnavailable('Cloudflare answered without a custom hostname');
  return { id: result.id, hostname: result.hostname ?? '', status: result.status ?? 'pending', sslStatus: result.ssl?.status ?? null };
}

/** Creates the custom hostname with a DV certificate validated over HTTP (Cloudflare issues it). */
export async function createCustomHostname(config: CloudflareConfig, hostname: string): Promise<CustomHostname> {
  return hostnameOf(await call(config, 'POST', '', { hostname, ssl: { method: 'http', type: 'dv' } }));
}

export async function getCustomHostname(config: CloudflareConfig, id: string): Promise<CustomHostname> {
  return hostnameOf(await call(config, 'GET', `/${encodeURIComponent(id)}`));
}

/** Deletes it; one Cloudflare no longer knows counts as deleted. */
export async function deleteCustomHostname(config: CloudflareConfig, id: string): Promise<void> {
  await call(config, 'DELETE', `/${encodeURIComponent(id)}`);
}
