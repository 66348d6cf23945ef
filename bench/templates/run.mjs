// bench/templates: create a template from a 50-page PDF through the API (wrangler dev, real HTTP,
// multipart upload) beside the floor — the same PDF sent to a worker that only loads it with pdf-lib and
// puts it in R2 — measured in the same run. Prints medians, p95s and the ratio (target ≤ 1.5).
// What is timed is the request, from the client: the upload's whole work up to its 201 (auth, rate
// limit, parse, checks, R2 put, the D1 batch, the page-image message sent). The page images that
// message asks for are drawn by a Chromium in the background (Browser Rendering when deployed); on
// this machine it would draw 150 images per upload on the cores the timed requests run on, so the
// API's wrangler dev holds the messages past the run (upload.mjs › PAGE_IMAGES_HELD_SECONDS).
//
//   node bench/templates/run.mjs [--iterations 30] [--smoke]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, seedBenchAccount, sharedServer, smoke, startDev } from '../local-wrangler.mjs';
import { configHoldingPageImages, fiftyPagePdf, PAGE_IMAGES_HELD_SECONDS, uploadVia } from './upload.mjs';

const iterations = smoke ? 1 : Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 30;
const warmup = smoke ? 1 : 5;

/** The pids of a process and all its descendants (wrangler's node, both workerd processes, esbuild). */
function processTree(pid) {
  let children = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    /* not there yet: try again */
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time (user + system, ms) a process tree has used so far, from /proc; Linux only, else NaN. */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return NaN;
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main() {
  const persist = mkdtempSync(path.join(tmpdir(), 'bench-templates-'));
  const servers = [];
  // The API's own wrangler dev holds the page images each upload queues past the run (upload.mjs); under
  // bench/smoke.mjs the shared server draws them, which only the smoke run's figures (meaningless) see.
  const held = sharedServer() ? undefined : configHoldingPageImages(root);
  try {
    // Under bench/smoke.mjs the API is its shared server; the floor is always a Worker of its own.
    const shared = sharedServer();
    const token = shared ? shared.setup.token : seedBenchAccount(persist);
    const started = (server) => servers.push(server) && server;
    const [api, floor] = await Promise.all([
      shared ?? startDev({ persist, config: held.config }).then(started),
      startDev({ persist, config: 'bench/templates/floor/wrangler.toml', ready: '' }).then(started),
    ]);
    const apiUrl = api.base;
    const floorUrl = floor.base;

    const pdf = await fiftyPagePdf();
    const viaApi = await uploadVia(apiUrl, token, pdf);
    const viaFloor = async () => {
      const res = await fetch(floorUrl, { method: 'POST', headers: { 'Content-Type': 'application/pdf' }, body: pdf });
      const body = await res.json();
      if (res.status !== 201 || body.page_count !== 50) throw new Error(`floor answered ${res.status}`);
    };

    for (let i = 0; i < warmup; i += 1) {
      await viaFloor();
      await viaApi();
    }
    const apiTimes = [];
    const floorTimes = [];
    const [apiTree, floorTree] = [api, floor].map((server) => processTree(server.pid));
    const cpuBefore = [cpuMs(apiTree), cpuMs(floorTree)];
    // Interleaved so both see the same machine load (other engineers share these cores).
    for (let i = 0; i < iterations; i += 1) {
      floorTimes.push(await timed(viaFloor));
      apiTimes.push(await timed(viaApi));
    }
    const [apiCpu, floorCpu] = [(cpuMs(apiTree) - cpuBefore[0]) / iterations, (cpuMs(floorTree) - cpuBefore[1]) / iterations];
    const a = stats(apiTimes);
    const f = stats(floorTimes);
    const fmt = (n) => `${n.toFixed(1)} ms`;
    console.log(
      `bench/templates — 50-page PDF (${(pdf.byteLength / 1024).toFixed(0)} KB), ${iterations} runs each after ${warmup} warm-up`,
    );
    console.log(
      held
        ? `  page images queued by the uploads: held ${PAGE_IMAGES_HELD_SECONDS} s (not drawn during the run; the queue send is timed)`
        : '  page images queued by the uploads: drawn during the run (shared server)',
    );
    console.log(`  API  POST /api/templates/pdf   median ${fmt(a.median)}   p95 ${fmt(a.p95)}`);
    console.log(`  floor pdf-lib load + R2 put    median ${fmt(f.median)}   p95 ${fmt(f.p95)}`);
    console.log(`  ratio (median API / median floor): ${(a.median / f.median).toFixed(2)}  (target ≤ 1.5)`);
    // Locally every request runs on wrangler's workerd processes, so CPU per request explains the wall
    // times: how much of the API's extra time is work rather than waiting.
    if (Number.isFinite(apiCpu + floorCpu)) {
      console.log(`  server CPU per request: API ${fmt(apiCpu)}, floor ${fmt(floorCpu)} (ratio ${(apiCpu / floorCpu).toFixed(2)})`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    held?.remove();
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
