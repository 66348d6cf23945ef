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
