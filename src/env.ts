// Hono environment: Worker bindings plus the request-scoped variables middleware sets on `c.var`.
import type { Account, AccessToken, User } from './db/schema/index';
import type { WebhookQueue } from './services/webhooks/queue';

export type Bindings = {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  /** development | test | production */
  ENVIRONMENT: string;
  SERVICE_NAME: string;
  /** Public base URL used in links; defaults to the request's origin. */
  APP_URL?: string;
  /** Producer of the webhooks queue (fan-out and delivery wake-ups). */
  WEBHOOK_QUEUE: WebhookQueue;
  /** Development/test only: comma list of `host:port` webhook destinations exempt from the SSRF checks. */
  WEBHOOK_ALLOW_HOSTS?: string;
};

/** Who is calling: set by the auth middleware on every tenant API request. */
export type Principal = {
  account: Account;
  user: User;
  token: AccessToken;
};

/** What a mutating request did, for the audit trail; handlers fill it, the audit middleware writes it. */
export type AuditNote = {
  action: string;
  resourceType?: string;
  resourceId?: string | number;
};

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    principal: Principal;
    audit: AuditNote | undefined;
  };
};
