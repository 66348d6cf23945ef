#!/usr/bin/env node
// Idempotent local setup (decisions.md › Bootstrap): secrets in .dev.vars, D1 migrations, the dev
// account `Dev` (plan pro) with admin@example.com and a full-access API token, printed at the end.
// `npm run setup -- --json` prints one JSON line instead, for scripts.
// `--config <wrangler.toml>` sets up the databases that config declares, with `.dev.vars` written next
// to it (where `wrangler dev --config` reads it); `--persist-to <dir>` keeps the local D1 state and
// the dev credentials in <dir> instead of .wrangler/ (the e2e tests and benchmarks use both).
// While the dev admin has no password, it also prints a one-time link to choose one (the same invitation
// link `POST /api/users` emails; `--base-url` sets its origin, default http://localhost:8787).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { d1Target, migrateDatabases, root, wranglerD1 } from './d1-databases.mjs';
import { installBrowserWrapper } from './browser-rendering.mjs';

const { values: options } = parseArgs({
  options: { json: { type: 'boolean' }, config: { type: 'string' }, 'persist-to': { type: 'string' }, 'base-url': { type: 'string' } },
});
const json = options.json ?? false;
const log = (...args) => {
  if (!json) console.log(...args);
};
const target = d1Target({ config: options.config, persistTo: options['persist-to'] });
const stateDir = target.persistTo ?? join(root, '.wrangler');

// 0. Browser Rendering runs the system Chromium instead of downloading Chrome (scripts/browser-rendering.mjs).
installBrowserWrapper({ log });

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (n) => Array.from({ length: n }, () => BASE62[randomInt(62)]).join('');

// 1. Local secrets: generate what is missing, keep what is there.
const SECRETS = {
  ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
  PARTNER_API_KEYS: () => `ptk_${base62(40)}`,
};
const varsPath = join(dirname(target.config), '.dev.vars');
const existing = existsSync(varsPath) ? readFileSync(varsPath, 'utf8') : '';
const vars = Object.fromEntries(
  existing
    .split('\n')
    .filter((l) => /^\s*[A-Z0-9_]+\s*=/.test(l))
    .map((l) => {
      const i = l.indexOf('=');
      return [
        l.slice(0, i).trim(),
        l
          .slice(i + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      ];
    }),
);
// wrangler.toml ships ENVIRONMENT=production (decisions.md › Production safety); local runs opt into
// development here, in the file a deploy never reads. TSA_URLS is emptied the same way: wrangler.toml's
// public time-stamping authorities are on the internet, and local runs work offline (seals at B-B).
const LOCAL_VARS = { ENVIRONMENT: () => 'development', TSA_URLS: () => '' };
const added = Object.entries({ ...LOCAL_VARS, ...SECRETS })
  .filter(([name]) => !(name in vars))
  .map(([name, make]) => [name, make()]);
if (added.length) {
  const lines = added.map(([name, value]) => `${name}="${value}"`).join('\n');
  writeFileSync(varsPath, `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${lines}\n`);
  for (const [name, value] of added) vars[name] = value;
  log(`Wrote ${added.map(([n]) => n).join(', ')} to .dev.vars`);
}

// 2. Migrations and id blocks for the control database and every shard the config declares
// (scripts/d1-databases.mjs), then the dev account, through wrangler against the local D1 databases.
const shards = migrateDatabases(target);
log(`Applied D1 migrations (local): the control database and ${shards.length} shards`);
const wrangler = (args) => wranglerD1(target, args);

const credentialsPath = join(stateDir, 'dev-credentials.json');
let token = existsSync(credentialsPath) ? JSON.parse(readFileSync(credentialsPath, 'utf8')).token : null;
token ??= `tok_${base62(40)}`;
const hash = createHash('sha256').update(token).digest('hex');
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

const seedPath = join(stateDir, 'dev-seed.sql');
mkdirSync(dirname(seedPath), { recursive: true });
writeFileSync(
  seedPath,
  `
INSERT INTO accounts (name, plan) SELECT 'Dev', 'pro'
  WHERE NOT EXISTS (SELECT 1 FROM accounts a JOIN users u ON u.account_id = a.id
                    WHERE a.name = 'Dev' AND lower(u.email) = 'admin@example.com');
INSERT INTO users (account_id, email, name, role)
  SELECT id, 'admin@example.com', 'Dev Admin', 'admin' FROM accounts a WHERE a.name = 'Dev'
    AND NOT EXISTS (SELECT 1 FROM accounts x JOIN users u ON u.account_id = x.id
                    WHERE x.name = 'Dev' AND lower(u.email) = 'admin@example.com')
  ORDER BY a.id LIMIT 1;
INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix)
  SELECT u.account_id, u.id, 'Development token', ${sqlString(hash)}, ${sqlString(token.slice(0, 12))}
  FROM users u JOIN accounts a ON a.id = u.account_id
  WHERE a.name = 'Dev' AND lower(u.email) = 'admin@example.com'
    AND NOT EXISTS (SELECT 1 FROM access_tokens WHERE token_hash = ${sqlString(hash)})
  ORDER BY u.id LIMIT 1;
UPDATE access_tokens SET revoked_at = NULL, expires_at = NULL WHERE token_hash = ${sqlString(hash)};
`,
);
wrangler(['execute', 'CONTROL_DB', `--file=${seedPath}`]);
const out = wrangler([
  'execute',
  'CONTROL_DB',
  '--json',
  `--command=SELECT account_id, user_id FROM access_tokens WHERE token_hash = ${sqlString(hash)}`,
]);
const row = JSON.parse(out)[0]?.results?.[0];
if (!row) throw new Error('The dev token was not stored; see the wrangler output above.');

// 3. A way in to the console: while the dev admin has no password, a one-time invitation link
// (password_tokens, stored as SHA-256 like the links the worker makes; valid 7 days). The link is kept in
// the credentials file and printed again on the next run while it is still unused and unexpired.
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
let setPasswordToken = existsSync(credentialsPath) ? (JSON.parse(readFileSync(credentialsPath, 'utf8')).set_password_token ?? null) : null;
const nowIso = new Date().toISOString();
const [state] = JSON.parse(
  wrangler([
    'execute',
    'CONTROL_DB',
    '--json',
    `--command=SELECT password_hash IS NULL AS needs_password, (SELECT count(*) FROM password_tokens WHERE token_hash = ${sqlString(sha256(setPasswordToken ?? ''))}
     AND user_id = ${Number(row.user_id)} AND used_at IS NULL AND expires_at > ${sqlString(nowIso)}) AS link_valid
   FROM users WHERE id = ${Number(row.user_id)}`,
  ]),
)[0].results;
if (!state.needs_password) setPasswordToken = null;
else if (!state.link_valid) {
  setPasswordToken = base62(43);
  const expiresAt = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString();
  wrangler([
    'execute',
    'CONTROL_DB',
    `--command=INSERT INTO password_tokens (token_hash, account_id, user_id, purpose, created_at, expires_at)
     VALUES (${sqlString(sha256(setPasswordToken))}, ${Number(row.account_id)}, ${Number(row.user_id)}, 'invite', ${sqlString(nowIso)}, ${sqlString(expiresAt)})`,
  ]);
}
const baseUrl = (options['base-url'] ?? 'http://localhost:8787').replace(/\/+$/, '');
const setPasswordUrl = setPasswordToken ? `${baseUrl}/password/set?token=${setPasswordToken}` : null;
writeFileSync(credentialsPath, JSON.stringify({ token, ...(setPasswordToken ? { set_password_token: setPasswordToken } : {}) }, null, 2));

const partnerKey = vars.PARTNER_API_KEYS.split(',')[0].trim();
if (json) {
  console.log(
    JSON.stringify({ account_id: row.account_id, user_id: row.user_id, token, partner_key: partnerKey, set_password_url: setPasswordUrl }),
  );
} else {
  log(`
Dev account "Dev" (id ${row.account_id}, plan pro), admin admin@example.com (user ${row.user_id})

  API token:    ${token}
  Partner key:  ${partnerKey}

  curl -H "X-Auth-Token: ${token}" http://localhost:8787/api/user
  API reference: http://localhost:8787/api/docs
`);
  if (setPasswordUrl) log(`Sign in: open ${setPasswordUrl} to choose the dev admin's password\n`);
  else log(`Console: http://localhost:8787/login (admin@example.com and the password you chose)\n`);
}
