// Custom signing domains: add, change, prove ownership and activate, remove (docs/custom-domains.md).
// Rows live in the control database; `db` below is always the control handle.
import type { Db } from '../../db/client';
import * as domainsDb from '../../db/queries/custom-domains';
import type { CustomDomain } from '../../db/schema/index';
import { isUniqueViolation } from '../../db/errors';
import { checkDomainBranding, isHttpUrl } from '../branding/branding-rules';
import { ApiError, notFound, unprocessable } from '../../lib/errors';
import { randomBase62 } from '../../lib/random';
import { nowIso } from '../../lib/time';
import { lapsedBefore } from './claims';
import { checkHostname } from './hostnames';
import { checkOwnership, VERIFY_RECORD_PREFIX } from './ownership';
import {
  cloudflareConfig,
  CloudflareRefused,
  CloudflareUnavailable,
  createCustomHostname,
  deleteCustomHostname,
  DUPLICATE_CUSTOM_HOSTNAME,
  getCustomHostname,
  type CloudflareConfig,
} from './cloudflare-hostnames';
import { forgetHost } from './host-cache';

export type DomainEnv = { DOH_RESOLVER_URL?: string; CF_API_BASE?: string; CF_API_TOKEN?: string; CF_ZONE_ID?: string };

export type DomainInput = {
  hostname?: string;
  website_url?: string | null;
  branding?: Record<string, unknown> | null;
  is_default?: boolean;
};

function checkedWebsiteUrl(value: string | null | undefined, problems: string[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (!isHttpUrl(value)) problems.push('website_url must be an http or https URL.');
  return value;
}

function throwIfAny(problems: string[]) {
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
}

const taken = (hostname: string) => new ApiError(409, `hostname ${hostname} is already registered as a custom domain.`);

export async function addDomain(db: Db, accountId: number, input: DomainInput, serviceHosts: string[]): Promise<CustomDomain> {
  const problems: string[] = [];
  const host = checkHostname(input.hostname ?? '', serviceHosts);
  if ('problem' in host) problems.push(host.problem);
  const websiteUrl = checkedWebsiteUrl(input.website_url, problems);
  const { branding, problems: brandingProblems } = checkDomainBranding(input.branding);
  problems.push(...brandingProblems);
  throwIfAny(problems);
  const hostname = (host as { hostname: string }).hostname;
  // A name some account proved is theirs; a mere claim of another account does not stand in the way
  // (several accounts may claim a name; the first to prove the TXT record takes it).
  if (await domainsDb.provenDomainByHostname(db, hostname)) throw taken(hostname);
  const cutoff = lapsedBefore();
  const own = await domainsDb.accountDomainByHostname(db, accountId, hostname);
  if (own && !(own.status === 'pending' && own.createdAt <= cutoff)) throw alreadyAdded(hostname);
  try {
    return await domainsDb.insertCustomDomain(
      db,
      { accountId, hostname, websiteUrl: websiteUrl ?? null, branding, verificationToken: randomBase62(32) },
      input.is_default === true,
      cutoff,
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The (account, hostname) index decides two requests of one account adding the name at once.
    if (await domainsDb.accountDomainByHostname(db, accountId, hostname)) throw alreadyAdded(hostname);
    throw new ApiError(409, 'Another request changed the default domain at the same time; try again.');
  }
}

const alreadyAdded = (hostname: string) => new ApiError(409, `hostname ${hostname} is already one of this account's custom domains.`);

export async function findDomain(db: Db, accountId: number, id: number): Promise<CustomDomain> {
  const domain = await domainsDb.getCustomDomain(db, accountId, id);
  if (!domain) throw notFound('Custom domain');
  return domain;
}

/** website_url, branding (keys given replace, null or "" removes one) and the default flag. */
export async function changeDomain(db: Db, accountId: number, id: number, input: DomainInput): Promise<CustomDomain> {
  const current = await findDomain(db, accountId, id);
  const problems: string[] = [];
  if (input.hostname !== undefined && input.hostname.trim().toLowerCase().replace(/\.$/, '') !== current.hostname) {
    problems.push('hostname cannot be changed; add the new host name as another custom domain.');
  }
  const websiteUrl = checkedWebsiteUrl(input.website_url, problems);
  let branding: Record<string, unknown> | undefined;
  if (input.branding !== undefined) {
    const changes = input.branding ?? {};
    const { branding: checked, problems: brandingProblems } = checkDomainBranding(changes);
    problems.push(...brandingProblems);
    const merged: Record<string, unknown> = { ...current.branding, ...checked };
    for (const [key, value] of Object.entries(changes)) if (value === null || value === '') delete merged[key];
    branding = input.branding === null ? {} : merged;
  }
  throwIfAny(problems);
  try {
    const updated = await domainsDb.updateCustomDomain(
      db,
      accountId,
      id,
      {
        ...(websiteUrl !== undefined && { websiteUrl }),
        ...(branding && { branding }),
        ...(input.is_default !== undefined && { isDefault: input.is_default }),
      },
      nowIso(),
    );
    if (!updated) throw notFound('Custom domain');
    forgetHost(updated.hostname);
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, 'Another request changed the default domain at the same time; try again.');
    throw err;
  }
}

function activationNotConfigured(): ApiError {
  return unprocessable('Custom domain activation is not configured on this service (CF_API_TOKEN and CF_ZONE_ID); ask the operator.');
}

/**
 * Checks the ownership TXT record, then activates the domain through Cloudflare for SaaS and stores the
 * certificate status. Safe to call again: an active domain only has its certificate status refreshed.
 */
export async function verifyDomain(db: Db, env: DomainEnv, accountId: number, id: number): Promise<CustomDomain> {
  let domain = await findDomain(db, accountId, id);
  const config = cloudflareConfig(env);
  if (domain.status === 'active') return config && domain.cloudflareHostnameId ? refreshCertificate(db, config, domain) : domain;
  if (!config) throw activationNotConfigured();

  const ownership = await checkOwnership(env, domain.hostname, domain.verificationToken);
  if (ownership.kind === 'unavailable')
    throw new ApiError(502, `The ownership record could not be checked: ${ownership.detail}; try again later.`);
  if (ownership.kind === 'not_found') {
    throw unprocessable(
      `No TXT record ${VERIFY_RECORD_PREFIX}.${domain.hostname} with the value ${domain.verificationToken} was found; add it at your DNS provider and verify again (DNS changes can take a few minutes).`,
    );
  }
  if (domain.status === 'pending') domain = await recordOwnership(db, domain);
  return activate(db, config, domain);
}

/**
 * The TXT record proved the name is this account's: the claim becomes `verified`, and other accounts'
 * claims of the name are deleted in the same batch. Another account that proved it first keeps it (409).
 */
async function recordOwnership(db: Db, domain: CustomDomain): Promise<CustomDomain> {
  let proven;
  try {
    proven = await domainsDb.proveDomainOwnership(db, domain, nowIso());
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw new ApiError(
      409,
      `hostname ${domain.hostname} was proven by another account first; its TXT record must hold only your token for you to take it.`,
    );
  }
  forgetHost(domain.hostname);
  // Undefined: a concurrent verify of this row got there first (or it was deleted); its state stands.
  return proven.domain ?? findDomain(db, domain.accountId, domain.id);
}

async function activate(db: Db, config: CloudflareConfig, domain: CustomDomain): Promise<CustomDomain> {
  if (domain.cloudflareHostnameId) return refreshCertificate(db, config, { ...domain, status: 'active' });
  let created;
  try {
    created = await createCustomHostname(config, domain.hostname);
  } catch (err) {
    if (err instanceof CloudflareRefused && err.codes.includes(DUPLICATE_CUSTOM_HOSTNAME)) {
      // Most likely a verify of the same domain running alongside this one: its result stands.
      const current = await findDomain(db, domain.accountId, domain.id);
      if (current.cloudflareHostnameId) return current;
      throw new ApiError(409, `Another verification of ${domain.hostname} is running; try again shortly.`);
    }
    if (err instanceof CloudflareRefused) {
      // Only while no concurrent verify activated it.
      await domainsDb.claimCloudflareHostname(db, domain.accountId, domain.id, { status: 'failed' }, nowIso());
      throw unprocessable(`Cloudflare refused to activate ${domain.hostname}: ${err.message}`);
    }
    if (err instanceof CloudflareUnavailable)
      throw new ApiError(502, `The domain could not be activated now (${err.message}); verify again later.`);
    throw err;
  }
  const at = nowIso();
  const claimed = await domainsDb.claimCloudflareHostname(
    db,
    domain.accountId,
    domain.id,
    { status: 'active', cloudflareHostnameId: created.id, certificateStatus: created.sslStatus },
    at,
  );
  if (!claimed) {
    // Another verify of the same domain recorded its hostname first (or the domain was deleted): this
    // one is surplus at Cloudflare.
    await deleteCustomHostname(config, created.id).catch(() => undefined);
    return findDomain(db, domain.accountId, domain.id);
  }
  forgetHost(claimed.hostname);
  return claimed;
}

async function refreshCertificate(db: Db, config: CloudflareConfig, domain: CustomDomain): Promise<CustomDomain> {
  if (!domain.cloudflareHostnameId || domain.certificateStatus === 'active') return domain;
  try {
    const current = await getCustomHostname(config, domain.cloudflareHostnameId);
    if (current.sslStatus && current.sslStatus !== domain.certificateStatus) {
      const at = nowIso();
      await domainsDb.setCertificateStatus(db, domain.id, current.sslStatus, at);
      return { ...domain, certificateStatus: current.sslStatus, updatedAt: at };
    }
  } catch (err) {
    if (!(err instanceof CloudflareRefused || err instanceof CloudflareUnavailable)) throw err;
  }
  return domain;
}

/** Deletes the Cloudflare hostname first (a failure keeps the row, so the delete can be retried), then the row. */
export async function removeDomain(db: Db, env: DomainEnv, accountId: number, id: number): Promise<void> {
  const domain = await findDomain(db, accountId, id);
  const config = cloudflareConfig(env);
  if (domain.cloudflareHostnameId && config) {
    try {
      await deleteCustomHostname(config, domain.cloudflareHostnameId);
    } catch (err) {
      if (err instanceof CloudflareUnavailable || err instanceof CloudflareRefused) {
        throw new ApiError(502, `The domain could not be removed from Cloudflare now (${err.message}); try again later.`);
      }
      throw err;
    }
  }
  if (!(await domainsDb.deleteCustomDomain(db, accountId, id))) throw notFound('Custom domain');
  forgetHost(domain.hostname);
}

/** Cron: deletes at most `limit` lapsed claims (never proven within CLAIM_LAPSE_MS); returns how many. */
export async function deleteLapsedClaims(db: Db, now = Date.now(), limit = 100): Promise<number> {
  const hostnames = await domainsDb.deleteLapsedClaims(db, lapsedBefore(now), limit);
  for (const hostname of hostnames) forgetHost(hostname);
  return hostnames.length;
}

/** Cron: refreshes the certificate status of at most `limit` active domains still waiting for one. */
export async function refreshPendingCertificates(db: Db, env: DomainEnv, limit = 20): Promise<number> {
  const config = cloudflareConfig(env);
  if (!config) return 0;
  const waiting = await domainsDb.domainsAwaitingCertificate(db, limit);
  for (const domain of waiting) await refreshCertificate(db, config, domain);
  return waiting.length;
}
