// bench/templates: create a template from a 50-page PDF through the API (wrangler dev, real HTTP,
// multipart upload) beside the floor — the same PDF sent to a worker that only loads it with pdf-lib and
// puts it in R2 — measured in the same run. Prints medians, p95s and the ratio (target ≤ 1.5).
//
//   node bench/templates/run.mjs [--iterations 30]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { benchEnv, freePort, root, seedBenchAccount, waitUp } from '../local-wrangler.mjs';

const iterations = Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 30;
const warmup = 5;
const env = benchEnv;

/** A 50-page letter-size PDF with a paragraph of text per page, like a long contract. */
async function fiftyPagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= 50; i += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${i}`, { x: 72, y: 720, size: 16, font });
    for (let line = 0; line < 40; line += 1) {
      page.drawText(`Clause ${i}.${line + 1}: the parties agree to the terms set out in this section of the agreement.`, { x: 72, y: 690 - line * 15, size: 10, font });
    }
  }
  return pdf.save();
}

function startWrangler(args, port, inspectorPort, persist) {
  // Each wrangler dev needs its own inspector port, or the second one never starts.
  const child = spawn('npx', ['wrangler', 'dev', ...args, '--port', String(port), '--inspector-port', String(inspectorPort), '--ip', '127.0.0.1', '--persist-to', persist, '--log-level', 'warn', '--var', 'ENVIRONMENT:development'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stderr.on('data', (d) => process.env.BENCH_DEBUG && process.stderr.write(d));
  return child;
}

/** The pids of a process and all its descendants (wrangler's node, both workerd processes, esbuild). */
function processTree(pid) {
  let children = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch { /* not there yet: try again */ }
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
  const children = [];
  try {
    const token = seedBenchAccount(persist);

    const [apiPort, floorPort, apiInspector, floorInspector] = [await freePort(), await freePort(), await freePort(), await freePort()];
    children.push(startWrangler([], apiPort, apiInspector, persist));
    children.push(startWrangler(['-c', 'bench/templates/floor/wrangler.toml'], floorPort, floorInspector, persist));
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    await Promise.all([waitUp(`${apiUrl}/api/openapi.json`), waitUp(floorUrl)]);

    const pdf = await fiftyPagePdf();
    const viaApi = async () => {
      const form = new FormData();
      form.set('name', 'Bench contract');
      form.set('documents[0][file]', new File([pdf], 'contract.pdf', { type: 'application/pdf' }));
      form.set('fields', JSON.stringify([{ name: 'Signature', type: 'signature', areas: [{ page: 50, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }]));
      const res = await fetch(`${apiUrl}/api/templates/pdf`, { method: 'POST', headers: { 'X-Auth-Token': token }, body: form });
      const body = await res.json();
      if (res.status !== 201 || body.documents[0].page_count !== 50) throw new Error(`API answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    };
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
    const [apiTree, floorTree] = children.map((child) => processTree(child.pid));
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
    console.log(`bench/templates — 50-page PDF (${(pdf.byteLength / 1024).toFixed(0)} KB), ${iterations} runs each after ${warmup} warm-up`);
    console.log(`  API  POST /api/templates/pdf   median ${fmt(a.median)}   p95 ${fmt(a.p95)}`);
    console.log(`  floor pdf-lib load + R2 put    median ${fmt(f.median)}   p95 ${fmt(f.p95)}`);
    console.log(`  ratio (median API / median floor): ${(a.median / f.median).toFixed(2)}  (target ≤ 1.5)`);
    // Locally every request runs on wrangler's workerd processes, so CPU per request explains the wall
    // times: how much of the API's extra time is work rather than waiting.
    if (Number.isFinite(apiCpu + floorCpu)) {
      console.log(`  server CPU per request: API ${fmt(apiCpu)}, floor ${fmt(floorCpu)} (ratio ${(apiCpu / floorCpu).toFixed(2)})`);
    }
  } finally {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch { /* not there yet: try again */ }
    }
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
