#!/usr/bin/env node
// Every benchmark in smoke mode (`bench/<name>/run.mjs --smoke`: one short iteration through the same
// code path, still printing its floor and ratio), as CI runs them after the tests: a benchmark that
// stops working fails the build. The full runs stay manual (npm run bench:<name>).
//
// What takes the time is setting up local D1 (setup.mjs: a minute of wrangler calls on a busy machine)
// and starting `wrangler dev`, so both happen once here: the benchmarks that set up their own state
// copy this one (BENCH_SEEDED_STATE), and those that measure the repository's Worker as configured for
// development use one shared server (BENCH_SHARED_*, see sharedServer()), its per-token rate limit
// raised so no benchmark's requests are refused. Benchmarks that need other variables or another
// Worker (a floor, limits off, shards, webhook hosts) still start their own.
//
//   npm run bench:smoke [-- <name> …]   (names: only those benchmarks)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, root, seedBenchState, setAdminPassword, startDev } from './local-wrangler.mjs';

/** A smoke run that takes longer than this is stopped and counted as failed. */
const TIMEOUT_MS = 5 * 60 * 1000;

const only = process.argv.slice(2);
const names = readdirSync(path.join(root, 'bench'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(root, 'bench', entry.name, 'run.mjs')))
  .map((entry) => entry.name)
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();
// Each benchmark's run.mjs, then the tools beside it that have a smoke mode too (a profile, a floor): a
// script there that reads `--smoke` (`smoke` from local-wrangler.mjs) is run the same way.
const benchmarks = names.flatMap((name) => [
  `${name}/run.mjs`,
  ...readdirSync(path.join(root, 'bench', name))
    .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs')
    .filter((file) => /\bsmoke\b/.test(readFileSync(path.join(root, 'bench', name, file), 'utf8')))
    .sort()
    .map((file) => `${name}/${file}`),
]);

/** Runs one benchmark script (`<name>/<file>`) in smoke mode with `env`; resolves to its exit code (1 when it timed out). */
function runSmoke(script, env) {
  return new Promise((resolve) => {
    // Its own process group, so a timeout stops whatever it started too.
    const child = spawn(process.execPath, [path.join('bench', script), '--smoke'], {
      cwd: root,
      env,
      stdio: 'inherit',
      detached: true,
    });
    const timer = setTimeout(() => {
      console.error(`bench/${script}: no result after ${TIMEOUT_MS / 1000} s; stopped`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ? 1 : code);
    });
  });
}

const started = performance.now();
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);
const seeded = mkdtempSync(path.join(tmpdir(), 'bench-smoke-seeded-'));
const sharedState = mkdtempSync(path.join(tmpdir(), 'bench-smoke-shared-'));
let server;
const results = [];
try {
  // The browser bundles and pdf.js the builder and docgen benchmarks load from public/vendor.
  execFileSync(process.execPath, ['scripts/vendor-assets.mjs'], { cwd: root, env: benchEnv, stdio: 'ignore' });
  const setup = seedBenchState(seeded);
  cpSync(seeded, sharedState, { recursive: true });
  server = await startDev({ persist: sharedState, vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  await setAdminPassword(server.base, setup);
  console.log(`bench/smoke: state set up and wrangler dev shared at ${server.base} in ${seconds(started)} s`);
  const env = {
    ...benchEnv,
    BENCH_SEEDED_STATE: seeded,
    BENCH_SHARED_URL: server.base,
    BENCH_SHARED_PID: String(server.pid),
    BENCH_SHARED_STATE: sharedState,
    BENCH_SHARED_SETUP: JSON.stringify({ ...setup, set_password_url: null }),
  };
  for (const name of benchmarks) {
    const from = performance.now();
    console.log(`\n── bench/${name} --smoke`);
    const code = await runSmoke(name, env);
    results.push({ name, code, seconds: seconds(from) });
  }
} finally {
  await server?.stop();
  rmSync(seeded, { recursive: true, force: true });
  rmSync(sharedState, { recursive: true, force: true });
}

const failed = results.filter((r) => r.code !== 0);
console.log(`\nbench/smoke: ${results.length - failed.length} of ${results.length} benchmarks ran in ${seconds(started)} s`);
for (const r of results)
  console.log(`  ${r.code === 0 ? 'ok    ' : 'FAILED'} bench/${r.name} ${r.seconds} s${r.code === 0 ? '' : ` (exit ${r.code})`}`);
process.exit(failed.length || results.length === 0 ? 1 : 0);
