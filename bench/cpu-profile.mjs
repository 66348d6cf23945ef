// CPU profiles of the Worker inside `wrangler dev` (startDev's `inspector` port), through the DevTools
// protocol: `profileWorker(server, run)` samples the Worker's isolate while `run()` drives it, and
// `selfTimes` sums the profile's self time per function, idle left out, heaviest first.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './local-wrangler.mjs';

const { default: WebSocket } = await import(
  createRequire(createRequire(path.join(root, 'package.json')).resolve('wrangler')).resolve('ws')
);

/** One DevTools protocol call over an open inspector WebSocket; resolves to its result. */
export function devtoolsCall(ws, id, method, params) {
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

/** Runs `run()` under the profiler of the Worker's isolate (sampling every `intervalUs`); resolves to the profile and the target's name. */
export async function profileWorker(server, run, { intervalUs = 100 } = {}) {
  const targets = await (await fetch(`http://127.0.0.1:${server.inspector}/json`)).json();
  const target = targets.find((t) => /signing-service/.test(t.title ?? t.id)) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  try {
    await devtoolsCall(ws, 1, 'Profiler.enable');
    await devtoolsCall(ws, 2, 'Profiler.setSamplingInterval', { interval: intervalUs });
    await devtoolsCall(ws, 3, 'Profiler.start');
    await run();
    const { profile } = await devtoolsCall(ws, 4, 'Profiler.stop');
    return { profile, name: target.title ?? target.id };
  } finally {
    ws.close();
  }
}

/** Self time per function (ms), idle left out, and the total. */
export function selfTimes(profile) {
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

/** Time (ms) of the samples with a function named in `names` on their stack, per name: where a whole path's CPU went. */
export function inclusiveTimes(profile, names) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map(names.map((name) => [name, 0]));
  profile.timeDeltas.forEach((delta, i) => {
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (totals.has(name) && !seen.has(name)) {
        seen.add(name);
        totals.set(name, totals.get(name) + delta / 1000);
      }
    }
  });
  return totals;
}

/** CPU milliseconds (user + system) of each workerd process in `pid`'s process group (wrangler's proxy and the Worker's), from /proc. */
export function workerdCpuMs(pid) {
  const pids = execFileSync('pgrep', ['-g', String(pid), 'workerd'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
  const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return new Map(
    pids.map((p) => {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return [p, ((Number(fields[11]) + Number(fields[12])) * 1000) / tick];
    }),
  );
}
