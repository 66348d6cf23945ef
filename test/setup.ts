// Runs before every test file. Files share one workerd runtime (vitest.config.ts › OWN_RUNTIME names the
// few that get their own), so the first file of a runtime applies the D1 migrations to the control database
// and every shard and gives each shard its id block (src/db/id-ranges.ts), as `npm run setup` does for
// local development, and every later file starts from empty tables again: what one file wrote never meets
// the next, and the bucket is emptied too. Id sequences keep counting, so no id is handed out twice in a
// runtime. Each file also gets its own client address (test/helpers.ts › clientAddress), so limits
// counted per address (failed authentications, signing pages) start afresh; Durable Object names are
// unique per use (tokens, accounts).
import { applyD1Migrations, env } from 'cloudflare:test';
import { shardBindings } from '../src/db/shards';
import { idBlockStatements } from '../src/db/id-ranges';

type RuntimeState = { filesStarted?: number; clientAddress?: string };
const runtime = globalThis as typeof globalThis & RuntimeState;

/** Deletes every row of every table but the migrations' own, fences first (their triggers guard the rest). */
async function emptyTables(database: D1Database): Promise<void> {
  const { results } = await database
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('d1_migrations', 'sqlite_sequence') AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .all<{ name: string }>();
  const tables = results.map(({ name }) => name).sort((a, b) => Number(b === 'account_fences') - Number(a === 'account_fences'));
  await database.batch([
    database.prepare('PRAGMA defer_foreign_keys = ON'),
    ...tables.map((name) => database.prepare(`DELETE FROM "${name}"`)),
  ]);
}

/** Deletes every object in the bucket (some tests name their own fixed keys, as account 1001's). */
async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (;;) {
    const { objects } = await bucket.list({ limit: 1000 });
    if (objects.length === 0) return;
    await bucket.delete(objects.map((o) => o.key));
  }
}

const filesStarted = runtime.filesStarted ?? 0;
runtime.filesStarted = filesStarted + 1;
// 198.51.100.0/24 (documentation space), as every test's requests have always come from; 150 files apart
// are minutes apart, past every per-address window.
runtime.clientAddress = `198.51.100.${100 + (filesStarted % 150)}`;

const shards = [...shardBindings(env).entries()];
if (filesStarted === 0) {
  await applyD1Migrations(env.CONTROL_DB, env.TEST_MIGRATIONS);
  for (const [shard, binding] of shards) {
    await applyD1Migrations(binding, env.TEST_MIGRATIONS);
    await binding.batch(idBlockStatements(shard).map((sql) => binding.prepare(sql)));
  }
} else {
  await Promise.all([...[env.CONTROL_DB, ...shards.map(([, binding]) => binding)].map(emptyTables), emptyBucket(env.FILES)]);
}

// The Worker loads its PDF and signature engines on first use (decisions.md › Cold start). In a test file that
// first use would fall inside a test's 5 s (transforming and fetching a few hundred modules through vitest), so
// they load here, before the file's tests, as they did while they were static imports of the Worker. So do
// the app's parts, which the Worker's entry builds on a part's first request (src/app-parts.ts).
await Promise.all([
  import('../src/app-api'),
  import('../src/app-signing'),
  import('../src/app'),
  import('../src/services/sealing/seal-submission'),
  import('../src/services/sealing/qes-signing-flow'),
  import('../src/services/templates/document-fields'),
]);
