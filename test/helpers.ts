// Test fixtures written straight to D1 (the same tables the app uses) and a request helper.
import { env, SELF } from 'cloudflare:test';
import { sha256Hex } from '../src/lib/crypto';
import { generateApiToken } from '../src/lib/tokens';
import { shardBindings } from '../src/db/shards';

/** Every shard database, SHARD_0 first (for a query that does not know the account). */
export function allShards(): D1Database[] {
  return shardBindings(env);
}

/** The shard database holding an account's tenant rows (templates, submissions, events, audit …). */
export async function shardOf(accountId: number): Promise<D1Database> {
  const row = await env.CONTROL_DB.prepare('SELECT shard FROM accounts WHERE id = ?').bind(accountId).first<{ shard: number }>();
  if (!row) throw new Error(`No account ${accountId}`);
  return shardBindings(env)[row.shard];
}

export type TestAccount = { accountId: number; userId: number; token: string };

let counter = 0;

export async function createAccount(
  options: { name?: string; plan?: string; role?: string; scopes?: string[] } = {},
): Promise<TestAccount> {
  counter += 1;
  // Accounts alternate between the shards (the next id modulo their number), so every test file
  // crosses shards (docs/scaling.md). The next id counts on from the sequence too: files that share a
  // runtime start from empty tables whose ids keep counting (test/setup.ts).
  const account = await env.CONTROL_DB.prepare(
    `INSERT INTO accounts (name, plan, shard) VALUES (?, ?, (SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'accounts'), 0), coalesce((SELECT max(id) FROM accounts), 0)) + 1) % ?) RETURNING id`,
  )
    .bind(options.name ?? `Account ${counter}`, options.plan ?? 'pro', shardBindings(env).length)
    .first<{ id: number }>();
  const user = await env.CONTROL_DB.prepare('INSERT INTO users (account_id, email, name, role) VALUES (?, ?, ?, ?) RETURNING id')
    .bind(account!.id, `user${counter}@example.com`, `User ${counter}`, options.role ?? 'admin')
    .first<{ id: number }>();
  const token = await createToken(account!.id, user!.id, options.scopes ?? []);
  return { accountId: account!.id, userId: user!.id, token };
}

export async function addUser(accountId: number, role: string, scopes: string[] = []): Promise<TestAccount> {
  counter += 1;
  const user = await env.CONTROL_DB.prepare('INSERT INTO users (account_id, email, name, role) VALUES (?, ?, ?, ?) RETURNING id')
    .bind(accountId, `member${counter}@example.com`, `Member ${counter}`, role)
    .first<{ id: number }>();
  return { accountId, userId: user!.id, token: await createToken(accountId, user!.id, scopes) };
}

export async function createToken(
  accountId: number,
  userId: number,
  scopes: string[] = [],
  extra: { allowedIps?: string[]; expiresAt?: string } = {},
) {
  const { token, prefix } = generateApiToken();
  await env.CONTROL_DB.prepare(
    'INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix, scopes, allowed_ips, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
    .bind(
      accountId,
      userId,
      'test',
      await sha256Hex(token),
      prefix,
      JSON.stringify(scopes),
      JSON.stringify(extra.allowedIps ?? []),
      extra.expiresAt ?? null,
    )
    .run();
  return token;
}

/**
 * The address a test's requests come from unless it names one: one per test file (test/setup.ts sets it),
 * so what is counted per address in one file never reaches the next in the same runtime.
 */
export function clientAddress(): string {
  return (globalThis as typeof globalThis & { clientAddress?: string }).clientAddress ?? '198.51.100.7';
}

type RequestOptions = {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
};

/** A real HTTP request through the Worker's fetch handler. */
export async function api(method: string, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { 'CF-Connecting-IP': options.ip ?? clientAddress(), ...options.headers };
  if (options.token) headers['X-Auth-Token'] = options.token;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    // fetch sets the multipart Content-Type with its boundary.
    body = options.body;
  } else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await SELF.fetch(`https://api.test${path}`, { method, headers, body });
  const text = await response.text();
  let json: any; // response bodies are asserted field by field
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** The partner keys of the test bindings (vitest.config.ts › PARTNER_API_KEYS). */
export function partnerKeys(): string[] {
  return (env.PARTNER_API_KEYS ?? '').split(',');
}

/** A real request to the partner control plane, with the first partner key unless told otherwise. */
export function partnerApi(method: string, path: string, options: Omit<RequestOptions, 'token'> & { key?: string | null } = {}) {
  const key = options.key === undefined ? partnerKeys()[0] : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key) headers.Authorization = `Bearer ${key}`;
  return api(method, `/api/partner/v1${path}`, { ...options, token: null, headers });
}
