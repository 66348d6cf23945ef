// The Hono environment: the Worker's bindings plus the request-scoped variables middleware sets on `c.var`.
// Above the services (it names their types); routes, middleware and pages import it, services never do.
import type { Db } from './db/client';
import type { Account, CustomDomain, User } from './db/schema/index';
import type { AccountScope } from './db/shards';
import type { Bindings, Credential } from './env';
import type { EmbedGrant } from './services/embed/embed-tokens';
import type { SignedIn } from './services/identity/sessions';
import type { Locale } from './shared/i18n/locales';

/** Who is calling: set by the auth middleware on every tenant API request. */
export type Principal = {
  account: Account;
  user: User;
  credential: Credential;
  /** The account had an enabled webhook endpoint when the request was authenticated. */
  hasWebhooks: boolean;
};

/** What a mutating request did, for the audit trail; handlers fill it, the audit middleware writes it. */
export type AuditNote = {
  action: string;
  resourceType?: string;
  resourceId?: string | number;
  /** Partner control plane: the tenant account whose trail records the action. */
  accountId?: number;
};

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    /** The control database (accounts, users, tokens, partner state); set for every request. */
    control: Db;
    /** The account the request acts for, its shard's database and queue producers; set once the account is known (auth, signing slug). */
    scope: AccountScope;
    principal: Principal;
    /** Set only when the request carries an embed JWT: the one resource it may reach (src/services/embed). */
    embed: EmbedGrant | undefined;
    /** Console pages: the signed-in session, user and account (src/middleware/console-session). */
    signedIn: SignedIn;
    audit: AuditNote | undefined;
    /** Set when the request arrived on an active custom signing domain (src/middleware/custom-domain-host). */
    customDomain: CustomDomain | undefined;
    /** Set by the partner auth middleware: SHA-256 of the partner key, to key its rate limit. */
    partnerKeyHash: string;
    /** Set by the partner auth middleware: the key's display prefix, the actor in audit trails. */
    partnerKeyPrefix: string;
    /** Signing routes: the language of the signer behind the slug, once known; refusals are worded in it. */
    signerLocale: Locale | undefined;
    /** Set by a handler that wrote its audit row in its own batch: the status that row records. */
    auditRecorded: number | undefined;
  };
};
