// A token never mints more than it has: the bounds a new token's scopes, IPs and expiry must keep.
import type { AccessToken } from '../db/schema/index';
import { ipEntryWithin } from '../lib/ip';

export type RequestedRights = {
  /** Empty means full access (spec › Authentication › Scopes rule 2). */
  scopes: readonly string[];
  /** Empty means any IP. */
  allowedIps: readonly string[];
  expiresAt?: string | null;
};

/**
 * What the new token would hold beyond the calling token, one sentence each; empty when nothing.
 * Scopes are compared as listed, with no scope implying another: `submissions:write` reaches the
 * routes of `submissions:send` today, but a listed subset stays a subset whatever later routes accept.
 */
export function rightsBeyondCaller(caller: Pick<AccessToken, 'scopes' | 'allowedIps' | 'expiresAt'>, requested: RequestedRights): string[] {
  const refused: string[] = [];
  if (caller.scopes.length > 0) {
    if (requested.scopes.length === 0) {
      refused.push(
        `A token limited to scopes ${caller.scopes.join(', ')} cannot create a full-access token; list the scopes the new token needs, within those.`,
      );
    } else {
      const extra = [...new Set(requested.scopes.filter((scope) => !caller.scopes.includes(scope)))];
      if (extra.length) {
        refused.push(
          `This token cannot grant ${extra.length === 1 ? 'scope' : 'scopes'} ${extra.join(', ')}, which it does not hold itself (it holds ${caller.scopes.join(', ')}).`,
        );
      }
    }
  }
  if (caller.allowedIps.length > 0) {
    if (requested.allowedIps.length === 0) {
      refused.push(
        `A token limited to IPs ${caller.allowedIps.join(', ')} cannot create a token usable from any IP; set allowed_ips within those.`,
      );
    } else {
      const outside = requested.allowedIps.filter((entry) => !ipEntryWithin(entry, caller.allowedIps));
      if (outside.length) {
        refused.push(
          `allowed_ips ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside this token's own allow-list (${caller.allowedIps.join(', ')}).`,
        );
      }
    }
  }
  if (caller.expiresAt) {
    if (!requested.expiresAt) {
      refused.push(
        `A token that expires at ${caller.expiresAt} cannot create a token that never expires; set expires_at no later than that.`,
      );
    } else if (Date.parse(requested.expiresAt) > Date.parse(caller.expiresAt)) {
      refused.push(`expires_at ${requested.expiresAt} is later than this token's own expiry (${caller.expiresAt}).`);
    }
  }
  return refused;
}
