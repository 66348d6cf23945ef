// Embed JWTs (spec › Embed JWT; decisions.md › Embedding; docs/embedding.md): HS256 under the account's
// embed key, bound to one resource, 4 hours, not renewable. Claims: iss, aud (account id), sub
// (`submission:<id>` | `template:<public id>`), scope (permissions, space-separated), jti, iat, exp,
// `uid`, the user who minted it, whose role still limits what the token may do, and on a form token `sid`,
// the one signer whose form it opens (docs/embedding.md › Which signer).
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import { EMBED_TOKEN_LIFETIME_SECONDS } from './embed-keys';

export const EMBED_ISSUER = 'signing-service';

export const EMBED_RESOURCE_TYPES = ['submission', 'template'] as const;
export type EmbedResourceType = (typeof EMBED_RESOURCE_TYPES)[number];

/** What each kind of token may be granted: a form token signs or views, a builder token edits or views. */
export const EMBED_PERMISSIONS: Record<EmbedResourceType, readonly string[]> = {
  submission: ['sign', 'view'],
  template: ['edit', 'view'],
};

/** What a verified token grants: one resource and its permissions. */
export type EmbedGrant = {
  resourceType: EmbedResourceType;
  /** A submission's integer id (as text) or a template's public id. */
  resourceId: string;
  permissions: string[];
  /** A form token's signer: the only one whose credentials it shows and whose fields it saves. Null: none. */
  submitterId: number | null;
  jti: string;
  expiresAt: string;
};

export type EmbedClaimsInput = {
  accountId: number;
  userId: number;
  resourceType: EmbedResourceType;
  resourceId: string;
  permissions: string[];
  /** Form tokens: the signer it is bound to, if any. */
  submitterId?: number | null;
};

/**
 * The shape of a compact JWS whose header and payload are JSON objects (`eyJ` is `{"`): how an embed
 * token is told apart from API (`tok_`) and OAuth (`oat_`) tokens before anything is looked up.
 */
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
const MAX_TOKEN_LENGTH = 2048;

export function isEmbedTokenShape(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && JWT_SHAPE.test(token);
}

export async function signEmbedToken(
  key: Uint8Array,
  input: EmbedClaimsInput,
  now = Date.now(),
): Promise<{ token: string; expiresAt: string; jti: string }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + EMBED_TOKEN_LIFETIME_SECONDS;
  const jti = crypto.randomUUID();
  const claims = { scope: input.permissions.join(' '), uid: input.userId, ...(input.submitterId ? { sid: input.submitterId } : {}) };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(EMBED_ISSUER)
    .setAudience(String(input.accountId))
    .setSubject(`${input.resourceType}:${input.resourceId}`)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
  return { token, expiresAt: new Date(exp * 1000).toISOString(), jti };
}

/** Who a token says it is for, read before its signature is checked: only to find the key to check it with. */
export function unverifiedAddressee(token: string): { accountId: number; userId: number } | null {
  try {
    const claims = decodeJwt(token);
    const accountId = typeof claims.aud === 'string' && /^[1-9][0-9]{0,15}$/.test(claims.aud) ? Number(claims.aud) : null;
    const userId = Number.isSafeInteger(claims.uid) && (claims.uid as number) > 0 ? (claims.uid as number) : null;
    return accountId && userId ? { accountId, userId } : null;
  } catch {
    return null;
  }
}

export class EmbedTokenRefused extends Error {}

/**
 * The grant of a token signed with one of `keys` for `accountId`; throws EmbedTokenRefused with a
 * sentence for a token that is altered, signed with another key, expired, or not one of ours.
 */
export async function verifyEmbedToken(token: string, accountId: number, keys: Uint8Array[], now = Date.now()): Promise<EmbedGrant> {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'] | undefined;
  for (const key of keys) {
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: EMBED_ISSUER,
        audience: String(accountId),
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        currentDate: new Date(now),
      }));
      break;
    } catch (error) {
      if (error instanceof errors.JWTExpired)
        throw new EmbedTokenRefused('The embed token has expired; embed tokens last 4 hours and are not renewed: mint a new one.');
      // Another key of the account may have signed it (a rotation's grace); anything else is refused below.
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      throw new EmbedTokenRefused('The embed token is not valid.');
    }
  }
  if (!payload) throw new EmbedTokenRefused('The embed token is not valid.');
  const [type, id] = String(payload.sub).split(':', 2);
  const scope = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const lifetime = (payload.exp as number) - (payload.iat as number);
  if (!(EMBED_RESOURCE_TYPES as readonly string[]).includes(type) || !id || lifetime > EMBED_TOKEN_LIFETIME_SECONDS) {
    throw new EmbedTokenRefused('The embed token is not valid.');
  }
  const resourceType = type as EmbedResourceType;
  const permissions = scope.filter((p) => EMBED_PERMISSIONS[resourceType].includes(p));
  // Tokens minted before `sid` existed, or whose submission had nobody left to sign, open no signer's form.
  const sid = payload.sid;
  const submitterId = resourceType === 'submission' && Number.isSafeInteger(sid) && (sid as number) > 0 ? (sid as number) : null;
  return {
    resourceType,
    resourceId: id,
    permissions,
    submitterId,
    jti: String(payload.jti),
    expiresAt: new Date((payload.exp as number) * 1000).toISOString(),
  };
}
