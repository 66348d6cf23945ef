// bench/startup: Worker startup CPU as `wrangler check startup` measures it (the global scope every new
// isolate evaluates before its first request) for the project beside its floor — a bare Hono Worker
// (bench/startup/bare) built by the same wrangler with the same compatibility settings — in the same run,
// with both bundle sizes and the ratio. Target: the project ≤ 50 ms (issue 30).
//
//   node bench/startup/run.mjs [--rounds 3] [--modules 15] [--smoke]
//
// --smoke measures each Worker once; --modules N also prints the N modules whose evaluation costs the
// most in the project's startup profile (from a bundle built the same way, mapped through esbuild's
// `// path` markers), to find what to make lazy next.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, root } from '../local-wrangler.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const smoke = argv.includes('--smoke');
const rounds = smoke ? 1 : option('--rounds', 3);
const modules = option('--modules', 0);
const TARGET_MS = 50;
// `check startup` builds through `wrangler deploy`, which reads the wrangler.toml of its working directory.
const bareDir = path.join(root, 'bench/startup/bare');
const work = mkdtempSync(path.join(tmpdir(), 'bench-startup-'));

/** One `wrangler check startup`: its active CPU (ms, garbage collection included) and bundle sizes (KiB). */
function checkStartup(label, cwd) {
  const profile = path.join(work, `${label}.cpuprofile`);
  const out = execFileSync('npx', ['wrangler', 'check', 'startup', '--outfile', profile], {
    cwd,
    env: benchEnv,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const active = /Active:\s*([\d.]+)\s*ms/.exec(out);
  const bundle = /Bundle:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(out);
  if (!active || !bundle) throw new Error(`wrangler check startup printed no figure for ${label}:\n${out}`);
  return { ms: Number(active[1]), kib: Number(bundle[1]), gzipKib: Number(bundle[2]), profile };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (n) => `${(n / 1024).toFixed(2)} MiB`;

const project = [];
const bare = [];
for (let round = 1; round <= rounds; round += 1) {
  // Alternated, so a busy moment on the shared machine lands on both sides rather than one.
  project.push(checkStartup('project', root));
  bare.push(checkStartup('bare', bareDir));
  const p = project.at(-1);
  const b = bare.at(-1);
  console.log(`round ${round}: project ${p.ms.toFixed(1)} ms, bare Hono ${b.ms.toFixed(1)} ms`);
}

const p = median(project.map((r) => r.ms));
const b = median(bare.map((r) => r.ms));
const { kib: projectKib, gzipKib: projectGzip } = project[0];
const { kib: bareKib, gzipKib: bareGzip } = bare[0];
console.log('');
console.log(`startup CPU (wrangler check startup, active, median of ${rounds})`);
console.log(`  project     ${p.toFixed(1).padStart(7)} ms   bundle ${kib(projectKib)} (gzip ${kib(projectGzip)})`);
console.log(`  bare Hono   ${b.toFixed(1).padStart(7)} ms   bundle ${kib(bareKib)} (gzip ${kib(bareGzip)})`);
console.log(
  `  ratio       ${(p / Math.max(b, 1)).toFixed(1)}× the floor (floor counted as at least 1 ms), bundle ${(projectKib / bareKib).toFixed(0)}×`,
);
console.log(`  target      project ≤ ${TARGET_MS} ms: ${p <= TARGET_MS ? 'met' : 'NOT met'}`);

if (modules > 0) printHeaviestModules(project.at(-1).profile, modules);
rmSync(work, { recursive: true, force: true });

/**
 * The modules whose code ran longest during startup, self time by package (or by file for our own
 * src/), from the profile of the last project run. Lines are mapped to modules through a bundle that
 * `wrangler deploy --dry-run` builds exactly as `check startup` does.
 */
function printHeaviestModules(profilePath, count) {
  const outdir = path.join(work, 'bundle');
  execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir], { cwd: root, env: benchEnv, stdio: 'ignore' });
  const lines = readFileSync(path.join(outdir, 'index.js'), 'utf8').split('\n');
  const starts = [];
  lines.forEach((line, i) => {
    const marker = /^\/\/ (\S+\.(?:[mc]?[jt]sx?|json))$/.exec(line);
    if (marker) starts.push([i + 1, marker[1]]);
  });
  const moduleAt = (line) => {
    let found = '(esbuild helpers)';
    for (const [start, name] of starts) {
      if (start > line) break;
      found = name;
    }
    const file = found.replace(/^.*node_modules\//, '');
    if (file === found) return found;
    const parts = file.split('/');
    return file.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  };
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(profilePath, 'utf8'));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const selfMs = new Map();
  samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + timeDeltas[i] / 1000));
  const cost = new Map();
  const add = (key, ms) => cost.set(key, (cost.get(key) ?? 0) + ms);
  for (const [id, ms] of selfMs) {
    const { callFrame, positionTicks = [] } = byId.get(id);
    if (!callFrame.url) {
      if (callFrame.functionName === '(garbage collector)') add('(garbage collection)', ms);
      continue;
    }
    const ticks = positionTicks.reduce((sum, t) => sum + t.ticks, 0);
    // The bundle's own top level (every ESM module's statements, hoisted there) has no line in the profile.
    if (ticks === 0) add(callFrame.lineNumber < 0 ? '(top-level statements, unattributed)' : moduleAt(callFrame.lineNumber + 1), ms);
    for (const t of positionTicks) add(moduleAt(t.line), (ms * t.ticks) / ticks);
  }
  console.log('');
  console.log(`heaviest modules at startup (self CPU ms, last project run)`);
  for (const [name, ms] of [...cost].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${ms.toFixed(1).padStart(6)}  ${name}`);
}
