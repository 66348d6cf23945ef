// Applies the D1 migrations to each test file's isolated control database and every shard, and gives
// each shard its id block (src/db/id-ranges.ts), as `npm run setup` does for local development.
import { applyD1Migrations, env } from 'cloudflare:test';
import { shardBindings } from '../src/db/shards';
import { idBlockStatements } from '../src/db/id-ranges';

await applyD1Migrations(env.CONTROL_DB, env.TEST_MIGRATIONS);
for (const [shard, binding] of shardBindings(env).entries()) {
  await applyD1Migrations(binding, env.TEST_MIGRATIONS);
  await binding.batch(idBlockStatements(shard).map((sql) => binding.prepare(sql)));
}

// The Worker loads its PDF and signature engines on first use (decisions.md › Cold start). In a test file that
// first use would fall inside a test's 5 s (transforming and fetching a few hundred modules through vitest), so
// they load here, before the file's tests, as they did while they were static imports of the Worker.
await Promise.all([
  import('../src/services/sealing/seal-submission'),
  import('../src/services/sealing/qes-signing-flow'),
  import('../src/services/templates/document-fields'),
]);
