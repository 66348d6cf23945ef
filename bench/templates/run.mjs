// bench/templates: create a template from a 50-page PDF through the API (wrangler dev, real HTTP,
// multipart upload) beside the floor — the same PDF sent to a worker that only loads it with pdf-lib and
// puts it in R2, routed as the API is (floor/wrangler.toml: the asset router runs before both) —
// measured in the same run. Prints medians, p95s and the ratio (target ≤ 1.5), and the ratio against
// the same floor without the routing (floor/bare.wrangler.toml).
// What is timed is the request, from the client: the upload's whole work up to its 201 (auth, rate
// limit, parse, checks, R2 put, the D1 batch, the page-image message sent). The page images that
// message asks for are drawn by a Chromium in the background (Browser Rendering when deployed); on
// this machine it would draw 150 images per upload on the cores the timed requests run on, so the
// API's wrangler dev holds the messages past the run (upload.mjs › PAGE_IMAGES_HELD_SECONDS).
//
// 300 interleaved requests each (after 20 to warm up) by default: at 30, the ratio of two medians moved
// ±0.08 between runs on this machine; at 300 it holds within ±0.01 (docs/decisions.md › How bench/templates
// is read). A round takes ~45 ms: starting the three servers is still most of a run.
//
//   node bench/templates/run.mjs [--iterations 300] [--smoke]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cpuMs, processTree, root, seedBenchAccount, sharedServer, smoke, startDev } from '../local-wrangler.mjs';
import { configHoldingPageImages, fiftyPagePdf, PAGE_IMAGES_HELD_SECONDS, uploadVia } from './upload.mjs';

/** The floor, routed as the API is (floor/wrangler.toml), and the same worker without the routing. */
const FLOOR_CONFIG = 'bench/templates/floor/wrangler.toml';
const BARE_FLOOR_CONFIG = 'bench/templates/floor/bare.wrangler.toml';

const iterations = smoke ? 1 : Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 300;
const warmup = smoke ? 1 : 20;

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
    // One after the other: wrangler picks its internal ports as it starts, and three starting at once
    // have been seen to take the same one.
    // The per-token limit raised past the run's requests, as bench/auth does: the limiter still runs
    // (a lease of slots every few requests), only its refusal would not let the run finish.
    const api = shared ?? started(await startDev({ persist, config: held.config, vars: { RATE_LIMIT_PER_MINUTE: '100000000' } }));
    const floor = started(await startDev({ persist, config: FLOOR_CONFIG, ready: '' }));
    const bare = started(await startDev({ persist, config: BARE_FLOOR_CONFIG, ready: '' }));

    const pdf = await fiftyPagePdf();
    const viaApi = await uploadVia(api.base, token, pdf);
    const viaFloor = (server) => async () => {
      const res = await fetch(server.base, { method: 'POST', headers: { 'Content-Type': 'application/pdf' }, body: pdf });
      const body = await res.json();
      if (res.status !== 201 || body.page_count !== 50) throw new Error(`floor answered ${res.status}`);
    };
    const runs = [
      { server: api, call: viaApi, times: [] },
      { server: floor, call: viaFloor(floor), times: [] },
      { server: bare, call: viaFloor(bare), times: [] },
    ];

    for (let i = 0; i < warmup; i += 1) for (const run of runs) await run.call();
    for (const run of runs) {
      run.tree = processTree(run.server.pid);
      run.cpuBefore = cpuMs(run.tree);
    }
    // Interleaved so all see the same machine load (other engineers share these cores).
    for (let i = 0; i < iterations; i += 1) for (const run of runs) run.times.push(await timed(run.call));
    for (const run of runs) {
      run.cpu = (cpuMs(run.tree) - run.cpuBefore) / iterations;
      run.stats = stats(run.times);
    }
    const [a, f, b] = runs.map((run) => run.stats);
    const [apiCpu, floorCpu, bareCpu] = runs.map((run) => run.cpu);
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
    console.log(
      `  floor pdf-lib load + R2 put    median ${fmt(f.median)}   p95 ${fmt(f.p95)}   (routed as the API is: assets, run_worker_first)`,
    );
    console.log(`  bare floor, no asset routing   median ${fmt(b.median)}   p95 ${fmt(b.p95)}`);
    console.log(
      `  ratio (median API / median floor): ${(a.median / f.median).toFixed(2)}  (target ≤ 1.5; against the bare floor ${(a.median / b.median).toFixed(2)})`,
    );
    // Locally every request runs on wrangler's workerd processes, so CPU per request explains the wall
    // times: how much of the API's extra time is work rather than waiting.
    if (Number.isFinite(apiCpu + floorCpu + bareCpu)) {
      console.log(
        `  server CPU per request: API ${fmt(apiCpu)}, floor ${fmt(floorCpu)} (ratio ${(apiCpu / floorCpu).toFixed(2)}), bare floor ${fmt(bareCpu)} (ratio ${(apiCpu / bareCpu).toFixed(2)})`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    held?.remove();
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
