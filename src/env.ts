// The Worker's bindings, what each queue carries, and the credential a request authenticated with. It
// imports nothing of src/: every layer may read it (the request context's variables are in app-env.ts).
import type { IdempotencyStore } from '../durable-objects/idempotency-store';
import type { RateLimiter } from '../durable-objects/rate-limiter';

/** The D1 bindings: the control database and the numbered tenant shards (src/db/shards.ts, docs/scaling.md). */
export type DatabaseBindings = { CONTROL_DB: D1Database } & Partial<Record<`SHARD_${number}`, D1Database>>;

// What each queue carries, declared with the bindings: producers (services) and consumers (src/queues)
// both read the binding's type from here, so neither imports the other.

/**
 * MESSAGES_QUEUE: a message row to deliver, the next link of the expiry sweep's chain
 * (src/services/submissions/expire-submissions.ts), or a chunk of a bulk send to create (src/services/bulk-send).
 */
export type MessageQueueBody = { type: 'message'; id: number } | { type: 'expire' } | BulkChunkMessage | AuditRowMessage;

/**
 * A tenant audit row a request could not write after its change committed (src/middleware/audit): the
 * `audit_events` row's columns as drizzle names them (typed there; this file imports nothing of src/).
 */
export type AuditRowMessage = { type: 'audit_event'; row: { accountId: number; requestId: string; [column: string]: unknown } };

/** A bulk send's chunk of up to 100 rows to store as submissions; D1 says whether it was stored already. */
export type BulkChunkMessage = { type: 'bulk_send'; bulkSendId: number; chunk: number };

/** WEBHOOK_QUEUE: wake-ups only; D1 holds the state (what is due, which attempt), so a lost, duplicated or early message changes nothing but latency. */
export type WebhookMessage =
  /** Fan out the outbox (sent after every successful mutating request; the cron drains too). */
  | { kind: 'drain' }
  /** Make the due attempt of this delivery (X-Webhook-Delivery-Id). */
  | { kind: 'deliver'; deliveryUuid: string };

export type WebhookQueue = Queue<WebhookMessage>;

/**
 * SEALING_QUEUE, the document queue: a completed submission handed to sealing (complete-submitter.ts ›
 * requestSealing, the sealing sweep, a reseal), read by src/queues/sealing.ts.
 */
export type SealingQueueBody = { type: 'seal'; submissionId: number };

/** SEALING_QUEUE also carries thumbnail batches: the account's documents (row ids) at each of `widths` (src/queues/thumbnails.ts). */
/** `format`: `webp` for the signing page's page images; PNG (the API's thumbnails) when absent. */
export type ThumbnailQueueBody = { type: 'thumbnails'; accountId: number; documentIds: number[]; widths: number[]; format?: 'webp' };

export type Bindings = DatabaseBindings & {
  FILES: R2Bucket;
  ASSETS: Fetcher;
  /** Browser Rendering (@cloudflare/puppeteer): HTML templates to PDF, page thumbnails (src/services/rendering). */
  BROWSER?: Fetcher;
  /** development | test | production */
  ENVIRONMENT: string;
  SERVICE_NAME: string;
  /** Secret: base64 32-byte AES-GCM key for secrets stored in D1 (src/lib/encryption.ts). */
  ENCRYPTION_KEY?: string;
  /** Public base URL used in links; defaults to the request's origin. */
  APP_URL?: string;
  /** Outbound email and SMS (src/services/mail/transports.ts). */
  MESSAGES_QUEUE: Queue<MessageQueueBody>;
  EMAIL?: SendEmail;
  MAIL_FROM?: string;
  MAIL_TRANSPORT?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  TWILIO_WHATSAPP_FROM?: string;
  TWILIO_API_BASE?: string;
  /** One rate limiter per API token, partner key, or client address failing authentication (durable-objects/rate-limiter.ts). */
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** One idempotency store per API token or partner key (durable-objects/idempotency-store.ts). */
  IDEMPOTENCY: DurableObjectNamespace<IdempotencyStore>;
  /** Secret: comma-separated operator keys (`ptk_…`) for /api/partner/v1. */
  PARTNER_API_KEYS?: string;
  /** Secret: Stripe API key for POST /api/subscription/checkout; checkout answers 422 without it. */
  STRIPE_SECRET_KEY?: string;
  /** Stripe's API origin; tests and local dev point it at an imitation. */
  STRIPE_API_BASE?: string;
  /** Secret: the Stripe webhook endpoint's signing secret (`whsec_…`) for POST /api/subscription/webhook. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Development only: `true` turns rate limiting and idempotency off (bench/limits compares both). */
  LIMITS_DISABLED?: string;
  /** Development only: overrides the 120 requests per minute per token (bench/limits). */
  RATE_LIMIT_PER_MINUTE?: string;
  /** Development only: `true` adds `Server-Timing: d1;dur=…` to every response (bench/shards). */
  D1_TIMING?: string;
  /** The document queue: sealing jobs (submissions/sealing-queue.ts) and thumbnail batches (templates/thumbnail-jobs.ts). */
  SEALING_QUEUE?: Queue<SealingQueueBody | ThumbnailQueueBody>;
  /** Producer of the webhooks queue (fan-out and delivery wake-ups). */
  WEBHOOK_QUEUE: WebhookQueue;
  /** Development/test only: comma list of `host:port` webhook destinations exempt from the SSRF checks. */
  WEBHOOK_ALLOW_HOSTS?: string;
  /** Milliseconds between an isolate's drains of a shard's outbox (default 50; the test suite sets 0): services/webhooks/drain-pacing.ts. */
  WEBHOOK_DRAIN_SPACING_MS?: string;
  /** Development/test only: comma list of `host:port` QES provider (CSC API) origins exempt from the SSRF checks. */
  QES_PROVIDER_ALLOW_HOSTS?: string;
  /** Days dispatched events, finished webhook attempts and sent messages are kept (default 30; src/scheduled/retention.ts). */
  RETENTION_DAYS?: string;
  /** DNS-over-HTTPS (RFC 8484) resolver that webhook host names are looked up with; Cloudflare's by default. */
  DOH_RESOLVER_URL?: string;
  /**
   * Comma list of RFC 3161 time-stamping authority URLs, tried in order: seals are PAdES B-T and up
   * with them; without, development seals at B-B and production does not seal (decisions.md › Signature levels).
   */
  TSA_URLS?: string;
  /** Cloudflare API origin for custom hostnames (default https://api.cloudflare.com/client/v4; tests use an imitation). */
  CF_API_BASE?: string;
  /** Secret: API token with SSL and Certificates edit on CF_ZONE_ID; custom domains cannot be activated without it. */
  CF_API_TOKEN?: string;
  /** The Cloudflare for SaaS zone custom hostnames are created in. */
  CF_ZONE_ID?: string;
};

/**
 * What a tenant API request authenticated with: an API token, a console session cookie, an OAuth
 * access token or an embed JWT (spec › Authentication). Every later check reads this, never the kind-specific row.
 */
export type Credential = {
  kind: 'api_token' | 'session' | 'oauth' | 'embed';
  /** The row's id within its kind (access_tokens, sessions, OAuth grants). */
  id: number;
  /** Granted scopes; empty means every scope (an unscoped API token, a session: the role still gates). */
  scopes: string[];
  /** Addresses the credential may be used from; empty means any. */
  allowedIps: string[];
  /** When the credential stops working, if it does. */
  expiresAt: string | null;
  /** What its per-credential rate limit and idempotency keys are keyed by (`token:<id>`, `session:<id>`, `oauth:<id>`). */
  key: string;
  /** Who acted, as the audit trail shows it: a token's prefix, a session's user email, an OAuth app. */
  actor: string;
  /** The API token's id for the audit row; null for other kinds. */
  accessTokenId: number | null;
};
