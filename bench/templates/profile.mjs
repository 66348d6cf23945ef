// CPU profile of POST /api/templates/pdf (the bench's 50-page file) in wrangler dev's workerd, through
// its inspector: the self time of the Worker's functions over N uploads, heaviest first. As in run.mjs
// the page images the uploads queue are held past the run, so the profile is the requests' own work
// (`--draw` lets them be drawn: their puppeteer client then runs in the same isolate).
//
//   node bench/templates/profile.mjs [--iterations 20] [--out profile.cpuprofile]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, seedBenchAccount, startDev } from '../local-wrangler.mjs';
import { configHoldingPageImages, fiftyPagePdf, uploadVia } from './upload.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const iterations = Number(arg('--iterations', 20));
const out = arg('--out', undefined);
const held = process.argv.includes('--draw') ? undefined : configHoldingPageImages(root);

const { default: WebSocket } = await import(
  createRequire(createRequire(path.join(root, 'package.json')).resolve('wrangler')).resolve('ws')
);

function send(ws, id, method, params) {
  return new Promise((resolve, reject) => {
    const onMessage = (data) => {
      const message = JSON.parse(data.toString());
      if (message.id !== id) return;
      ws.off('message', onMessage);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

/** Self time per function (ms), idle left out, and the total. */
function selfTimes(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.timeDeltas.forEach((delta, i) => {
    const { callFrame } = nodes.get(profile.samples[i]);
    if (callFrame.functionName === '(idle)') return;
    const key = `${callFrame.functionName || '(anonymous)'} ${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + delta / 1000);
    total += delta / 1000;
  });
  return { total, rows: [...self].sort((a, b) => b[1] - a[1]) };
}

const persist = mkdtempSync(path.join(tmpdir(), 'profile-templates-'));
let server;
try {
  const token = seedBenchAccount(persist);
  server = await startDev({ persist, config: held?.config });
  const pdf = await fiftyPagePdf();
  const upload = await uploadVia(server.base, token, pdf);
  for (let i = 0; i < 5; i += 1) await upload();
  const targets = await (await fetch(`http://127.0.0.1:${server.inspector}/json`)).json();
  const target = targets.find((t) => /signing-service/.test(t.title ?? t.id)) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await send(ws, 1, 'Profiler.enable');
  await send(ws, 2, 'Profiler.setSamplingInterval', { interval: Number(arg('--interval', 100)) });
  await send(ws, 3, 'Profiler.start');
  for (let i = 0; i < iterations; i += 1) await upload();
  const { profile } = await send(ws, 4, 'Profiler.stop');
  ws.close();
  if (out) writeFileSync(out, JSON.stringify(profile));
  const { total, rows } = selfTimes(profile);
  console.log(`${target.title ?? target.id}: ${(total / iterations).toFixed(1)} ms CPU per upload (${iterations} uploads)`);
  for (const [name, ms] of rows.slice(0, 40)) console.log(`  ${(ms / iterations).toFixed(2).padStart(7)} ms  ${name}`);
} finally {
  await server?.stop();
  held?.remove();
  rmSync(persist, { recursive: true, force: true });
}
