#!/usr/bin/env node
// bench/shards: the same write-heavy workload — submission creates and signer completions from many
// accounts — against 1, 2 and 4 tenant shards in one run (issue 14 › Bars). Each shard count gets its
// own `wrangler dev` with a generated config (scripts/local-config.mjs) over a copy of one state set up
// once by scripts/setup.mjs, so every run starts from the same databases. Accounts are created through
// the partner API, which places each on the least loaded shard. Limits are off (LIMITS_DISABLED) so the
// rate limit does not bound the load, and D1_TIMING makes every response carry the time it waited on
// D1 (`Server-Timing: d1;dur=…`, src/middleware/d1-timing). The sealing job is left out of the
// generated configs (bench/seal measures it); invitation emails and webhook drains stay in.
//
// Prints, per shard count: operations/s, requests/s, p50/p99 latency, D1 time and calls per request,
// and the CPU split of the run (workerd, wrangler's node, this load generator, everything else on the
// machine); then the 4:1 throughput ratio (target ≥ 1.5) and what bounds it. Afterwards, from the
// 1-shard run's SQLite file: bytes per submission on the shard (docs/scaling.md).
//
//   npm run bench:shards   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ACCOUNTS, BENCH_SHARDS=1,2,4 to vary)
//   `--smoke`: 1 and 2 shards, 2 accounts, 2 connections, 1 s each (the ratio is then 2:1).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PDFDocument } from 'pdf-lib';
import { writeShardedConfig } from '../../scripts/local-config.mjs';
import { benchEnv, freePort, root, seedBenchState, smoke, waitUp } from '../local-wrangler.mjs';

const SECONDS = smoke ? 1 : Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = smoke ? 2 : Number(process.env.BENCH_CONNECTIONS ?? 16);
const ACCOUNTS = smoke ? 2 : Number(process.env.BENCH_ACCOUNTS ?? 16);
const SHARD_COUNTS = (smoke ? '1,2' : (process.env.BENCH_SHARDS ?? '1,2,4')).split(',').map(Number);
const WITHOUT_CONSUMERS = ['signing-service-sealing'];
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds so far of one thread (/proc/<pid>/task/<tid>/stat). */
function threadCpu(path) {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/**
 * CPU seconds so far of every process in a process group, split by command name (workerd, node, …),
 * and of each workerd thread (`threads`), which shows whether one thread carries the work.
 */
function groupCpu(pgid) {
  const byName = { threads: {} };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const key = name.startsWith('workerd') ? 'workerd' : name === 'node' || name.startsWith('MainThread') ? 'wrangler' : 'other';
      byName[key] = (byName[key] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS;
      if (key === 'workerd') {
        for (const tid of readdirSync(`/proc/${entry}/task`))
          byName.threads[`${entry}/${tid}`] = threadCpu(`/proc/${entry}/task/${tid}/stat`);
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return byName;
}

/** Busy and total CPU seconds of the whole machine so far (/proc/stat's first line). */
function machineCpu() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3] + values[4];
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

function selfCpu() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function startServer(dir, config, port, inspector) {
  const vars = { ENVIRONMENT: 'development', LIMITS_DISABLED: 'true', D1_TIMING: 'true' };
  const child = spawn(
    join(root, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '--config',
      config,
      '--persist-to',
      dir,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
      ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    ],
    // Its own process group: the CPU split reads it, and stopping it stops its workerd too.
    { cwd: root, env: benchEnv, stdio: ['ignore', 'ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore'], detached: true },
  );
  return {
    base: `http://127.0.0.1:${port}`,
    pgid: child.pid,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

async function call(base, method, path, auth, body) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  const timing = res.headers.get('Server-Timing')?.match(/d1;dur=([\d.]+);desc="(\d+) calls"/);
  return {
    status: res.status,
    json: text ? JSON.parse(text) : undefined,
    text,
    ms,
    d1Ms: timing ? Number(timing[1]) : NaN,
    d1Calls: timing ? Number(timing[2]) : NaN,
  };
}

async function must(promise, expected) {
  const res = await promise;
  if (res.status !== expected) throw new Error(`expected ${expected}, got ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json;
}

/** ACCOUNTS accounts through the partner API (placed by the app), each with a token and a template. */
async function prepareAccounts(base, partnerKey, pdf) {
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const account = await must(
      call(base, 'POST', '/api/partner/v1/accounts', partnerKey, { name: `Tenant ${i}`, plan: 'enterprise' }),
      201,
    );
    const { token } = await must(
      call(base, 'POST', `/api/partner/v1/accounts/${account.id}/access_tokens`, partnerKey, { email: `admin${i}@tenant.test` }),
      201,
    );
    const template = await must(
      call(base, 'POST', '/api/templates/pdf', token, {
        name: 'Agreement',
        documents: [{ name: 'agreement', file: pdf }],
        fields: [{ name: 'Name', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
      }),
      201,
    );
    accounts.push({ id: account.id, token, templateId: template.id });
  }
  return accounts;
}

/** One operation: create a submission with one signer, then complete that signer through the API. */
async function operation(base, account, n, samples) {
  const created = await call(base, 'POST', '/api/submissions', account.token, {
    template_id: account.templateId,
    submitters: [{ email: `signer${n}@example.com`, name: `Signer ${n}`, values: { Name: `Signer ${n}` } }],
  });
  samples.push(created);
  if (created.status !== 201) return false;
  const completed = await call(base, 'PUT', `/api/submitters/${created.json.submitters[0].id}`, account.token, { completed: true });
  samples.push(completed);
  return completed.status === 200;
}

/** CONNECTIONS loops of operations for `seconds`, accounts taken in turn. */
async function load(base, accounts, seconds) {
  const samples = [];
  let next = 0;
  let operations = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const n = next;
        next += 1;
        if (await operation(base, accounts[n % accounts.length], n, samples)) operations += 1;
      }
    }),
  );
  return { samples, operations };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Shard databases of a state directory by their id block (submissions' sequence), with their size. */
function shardFiles(dir) {
  const folder = join(dir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const found = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.sqlite'))) {
    const db = new DatabaseSync(join(folder, file));
    try {
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const hasAccounts = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'accounts'").get().n > 0;
      const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'submissions'").get();
      if (!seq || (hasAccounts && db.prepare('SELECT count(*) AS n FROM accounts').get().n > 0)) continue; // the control database
      const bytes = db.prepare('PRAGMA page_count').get().page_count * db.prepare('PRAGMA page_size').get().page_size;
      const rows = Object.fromEntries(
        ['submissions', 'submitters', 'submission_events', 'events', 'messages', 'audit_events'].map((table) => [
          table,
          db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n,
        ]),
      );
      // Bytes in use per table, its indexes included (dbstat: page size less unused space).
      const used = Object.fromEntries(
        db
          .prepare(
            'SELECT m.tbl_name AS name, sum(s.pgsize - s.unused) AS used FROM dbstat s JOIN sqlite_master m ON m.name = s.name GROUP BY m.tbl_name',
          )
          .all()
          .map((r) => [r.name, r.used]),
      );
      found.push({ file, shard: Math.floor(Number(seq.seq) / 2 ** 32), bytes, rows, used });
    } catch {
      // not one of ours (no tables yet)
    } finally {
      db.close();
    }
  }
  return found.sort((a, b) => a.shard - b.shard);
}

async function runWith(base, shards, partnerKey, pdf) {
  const dir = mkdtempSync(join(tmpdir(), `bench-shards-${shards}-`));
  cpSync(base, dir, { recursive: true });
  const config = writeShardedConfig(dir, shards, { withoutConsumers: WITHOUT_CONSUMERS });
  const server = startServer(dir, config, await freePort(), await freePort());
  try {
    await waitUp(`${server.base}/api/openapi.json`);
    const accounts = await prepareAccounts(server.base, partnerKey, pdf);
    await load(server.base, accounts, smoke ? 1 : 5); // warm-up: isolates, JIT, page cache
    const before = { group: groupCpu(server.pgid), machine: machineCpu(), self: selfCpu() };
    const started = performance.now();
    const { samples, operations } = await load(server.base, accounts, SECONDS);
    const elapsed = (performance.now() - started) / 1000;
    const after = { group: groupCpu(server.pgid), machine: machineCpu(), self: selfCpu() };
    const ok = samples.filter((s) => s.status < 300);
    const latencies = ok.map((s) => s.ms).sort((a, b) => a - b);
    const cpu = (key) => (after.group[key] ?? 0) - (before.group[key] ?? 0);
    const workerd = cpu('workerd');
    const wrangler = cpu('wrangler') + cpu('other');
    const generator = after.self - before.self;
    const busiestThread = Math.max(
      0,
      ...Object.entries(after.group.threads).map(([tid, seconds]) => seconds - (before.group.threads[tid] ?? seconds)),
    );
    const busy = after.machine.busy - before.machine.busy;
    return {
      dir,
      shards,
      elapsed,
      operations,
      requests: ok.length,
      failures: samples.length - ok.length,
      opsPerSecond: operations / elapsed,
      requestsPerSecond: ok.length / elapsed,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      d1Ms: mean(ok.map((s) => s.d1Ms)),
      d1Calls: mean(ok.map((s) => s.d1Calls)),
      d1Share: mean(ok.map((s) => s.d1Ms / s.ms)),
      cpuMsPerRequest: (workerd * 1000) / ok.length,
      cores: {
        workerdThread: busiestThread / elapsed,
        workerd: workerd / elapsed,
        wrangler: wrangler / elapsed,
        generator: generator / elapsed,
        rest: Math.max(0, busy - workerd - wrangler - generator) / elapsed,
        busy: busy / elapsed,
      },
      accountsPerShard: accounts.length / shards,
    };
  } finally {
    await server.stop();
  }
}

const work = [];
const base = mkdtempSync(join(tmpdir(), 'bench-shards-base-'));
work.push(base);
try {
  // One state for every run: migrations and id blocks on the control database and four shards.
  writeShardedConfig(base, Math.max(...SHARD_COUNTS), { withoutConsumers: WITHOUT_CONSUMERS });
  let partnerKey;
  if (process.env.BENCH_SEEDED_STATE && Math.max(...SHARD_COUNTS) <= 2) {
    // Under bench/smoke.mjs: its state holds the control database and the repository's two shards, under
    // the database ids the generated configs use, and .dev.vars holds the partner key it was set up with.
    partnerKey = seedBenchState(base).partner_key;
    cpSync(join(root, '.dev.vars'), join(base, '.dev.vars'));
  } else {
    const setup = spawnSync(
      process.execPath,
      ['scripts/setup.mjs', '--json', '--config', join(base, 'wrangler.toml'), '--persist-to', base],
      { cwd: root, env: benchEnv, encoding: 'utf8' },
    );
    if (setup.status !== 0) throw new Error(`setup.mjs failed:\n${setup.stdout}\n${setup.stderr}`);
    partnerKey = JSON.parse(setup.stdout.trim().split('\n').pop()).partner_key;
  }
  const emptyShard = shardFiles(base)[0];
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const pdf = Buffer.from(await doc.save()).toString('base64');

  const results = [];
  for (const shards of SHARD_COUNTS) {
    console.error(`  … ${shards} shard(s)`);
    const result = await runWith(base, shards, partnerKey, pdf);
    work.push(result.dir);
    results.push(result);
  }

  const fmt = (n, digits = 1) => n.toFixed(digits);
  console.log(
    `bench/shards — wrangler dev, local D1, ${ACCOUNTS} accounts, ${CONNECTIONS} connections, ${SECONDS} s per shard count, ${cpus().length} cores`,
  );
  console.log('  operation = POST /api/submissions (1 signer) + PUT /api/submitters/{id} {completed: true}');
  for (const r of results) {
    console.log(
      `  ${r.shards} shard${r.shards > 1 ? 's' : ' '}  ${fmt(r.opsPerSecond).padStart(6)} ops/s  ${fmt(r.requestsPerSecond).padStart(6)} req/s  p50 ${fmt(r.p50, 0)} ms  p99 ${fmt(r.p99, 0)} ms` +
        `  D1 ${fmt(r.d1Ms)} ms/req (${fmt(r.d1Calls)} calls, ${fmt(r.d1Share * 100, 0)}% of latency)  failures ${r.failures}`,
    );
    console.log(
      `           CPU (cores): workerd ${fmt(r.cores.workerd, 2)} (busiest thread ${fmt(r.cores.workerdThread, 2)}; ${fmt(r.cpuMsPerRequest)} ms per request), wrangler node ${fmt(r.cores.wrangler, 2)}, load generator ${fmt(r.cores.generator, 2)}, rest of machine ${fmt(r.cores.rest, 2)}; busy ${fmt(r.cores.busy, 2)} of ${cpus().length}`,
    );
  }
  if (smoke && results.some((r) => r.failures || !r.operations)) process.exitCode = 1;
  const one = results.find((r) => r.shards === 1);
  // The most shards measured against one: 4:1 in the full run.
  const four = results.length > 1 ? results[results.length - 1] : undefined;
  if (one && four) {
    console.log(
      `  ratio ${four.shards}:1  throughput ${fmt(four.opsPerSecond / one.opsPerSecond, 2)} (target ≥ 1.5), D1 time per request ${fmt(four.d1Ms / one.d1Ms, 2)}×`,
    );
    const saturated = four.cores.busy > cpus().length * 0.9;
    // Local workerd runs the Worker and every local D1 database on one thread: near one core, that is the bound.
    const workerdBound = four.cores.workerdThread > 0.9;
    if (saturated || workerdBound) {
      console.log(
        `  bound by: ${workerdBound ? `workerd's busiest thread at ${fmt(four.cores.workerdThread, 2)} cores — one thread runs the Worker and every local D1 database, so local shards share it` : ''}` +
          `${workerdBound && saturated ? '; ' : ''}${saturated ? `the machine (${fmt(four.cores.busy, 2)} of ${cpus().length} cores busy, ${fmt(four.cores.rest, 2)} of them other processes; workerd got ${fmt(four.cores.workerd, 2)})` : ''}`,
      );
    }
  }
  if (one) {
    // Every submission the run created was completed (a failed completion would be counted as a failure).
    const [shard] = shardFiles(one.dir);
    const submissions = shard.rows.submissions;
    const grown = shard.bytes - emptyShard.bytes;
    console.log(
      `  shard file after the 1-shard run: +${fmt(grown / 1024 / 1024, 2)} MB for ${submissions} submissions (${ACCOUNTS} templates) = ${fmt(grown / submissions, 0)} bytes per submission`,
    );
    console.log(
      `  rows per submission: ${Object.entries(shard.rows)
        .map(([t, n]) => `${t} ${fmt(n / submissions, 2)}`)
        .join(', ')}`,
    );
    const perTable = Object.entries(shard.used)
      .map(([table, used]) => [table, (used - (emptyShard.used[table] ?? 0)) / submissions])
      .filter(([, bytes]) => bytes >= 1)
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `  bytes in use per submission (rows + indexes): ${perTable.map(([t, b]) => `${t} ${fmt(b, 0)}`).join(', ')}; total ${fmt(
        perTable.reduce((a, [, b]) => a + b, 0),
        0,
      )}`,
    );
  }
} finally {
  for (const dir of work) rmSync(dir, { recursive: true, force: true });
}
