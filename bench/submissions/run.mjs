// bench/submissions: create 1,000 submissions through the bulk endpoint (10 requests of 100, wrangler dev,
// real HTTP) and print ms per submission (target ≤ 1.5) beside its floor — the same requests to a worker
// that only writes a submission and a submitter row for each in one D1 batch and queues the invitations
// (floor/worker.js, routed as the API is) — and the ratio, with each server's CPU; then list page
// 1 and page 100 (limit 10) at 1k rows and again after seeding the account to 100k rows directly in D1,
// and print the 100k/1k ratio (target ≤ 1.3).
//
// The invitations the creates queue are held on the message queue past the run (MESSAGES_HELD_SECONDS):
// what is timed is the requests, not the emails their consumer would render and send on the same cores
// meanwhile (deployed, in other isolates), which made one request's figure swing from 0.4 to 2.2 ms.
//
// `--smoke`: 30 creates in one request, page 3 instead of 100, 100 seeded rows, one timed list each.
//
//   node bench/submissions/run.mjs [--iterations 30] [--smoke]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { configHoldingQueue, cpuMs, d1, processTree, root, seedBenchAccount, smoke, startDev } from '../local-wrangler.mjs';

const iterations = smoke ? 1 : Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 30;
/** Bulk requests, submissions per request, the far page listed, rows seeded per chunk (10 chunks). */
const [REQUESTS, PER_REQUEST, FAR_PAGE, SEED_CHUNK] = smoke ? [1, 30, 3, 10] : [10, 100, 100, 9900];
const CREATES = REQUESTS * PER_REQUEST;
/** How long the bench's server holds each message on the message queue before its consumer gets it. */
const MESSAGES_HELD_SECONDS = 3600;
/** The creates' floor (floor/wrangler.toml). */
const FLOOR_CONFIG = 'bench/submissions/floor/wrangler.toml';

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  // A server of its own (under bench/smoke.mjs on a copy of its state): the seed below stops it, as a
  // `wrangler d1 execute` beside a running server dropped its connections.
  const persist = mkdtempSync(path.join(tmpdir(), 'bench-submissions-'));
  const held = configHoldingQueue(root, 'MESSAGES_QUEUE', MESSAGES_HELD_SECONDS, 'submissions');
  let server;
  let floor;
  try {
    const token = seedBenchAccount(persist);
    // Limits off: 1,000 creates and the list runs would pass 120 requests a minute; this measures the work.
    const startOwn = async () => {
      server = await startDev({ persist, vars: { LIMITS_DISABLED: 'true' }, config: held.config });
    };
    await startOwn();
    // A restarted server listens on a new port.
    const base = () => server.base;
    const call = async (method, url, body) => {
      const res = await fetch(`${base()}${url}`, {
        method,
        headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
        body: body && JSON.stringify(body),
      }).catch((err) => {
        throw new Error(`${method} ${url} failed: ${err.cause?.code ?? err.message}`);
      });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };

    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    const file = Buffer.from(await pdf.save()).toString('base64');
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Bench',
      documents: [{ name: 'bench.pdf', file }],
      fields: [{ name: 'Signature', type: 'signature', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }],
    });

    // 1,000 creates: 10 bulk requests of 100 submissions, each with one submitter who is invited by email.
    // Each request is timed: the first also builds what the isolate had not needed yet (the bulk path's
    // modules, its statements), once per isolate, so the figure judged is the median request's. The
    // requests go one after the other, as a client's would: whatever a request leaves its isolate to do
    // after answering is paid by the next. Then the same bodies to the floor (its own server, warmed by
    // one request first), one after the other too.
    const bodyOf = (r) => ({
      template_id: template.id,
      submissions: Array.from({ length: PER_REQUEST }, (_, i) => ({
        submitters: [{ email: `signer${r * PER_REQUEST + i}@example.com`, name: `Signer ${r * PER_REQUEST + i}` }],
      })),
    });
    /** Per submission: each request's wall ms, and the server's CPU ms over them all. */
    const timeRequests = async (pid, send) => {
      const tree = processTree(pid);
      const cpuBefore = cpuMs(tree);
      const each = [];
      for (let r = 0; r < REQUESTS; r += 1) {
        const body = bodyOf(r);
        const began = performance.now();
        await send(body);
        each.push((performance.now() - began) / PER_REQUEST);
      }
      return { each, cpu: (cpuMs(tree) - cpuBefore) / CREATES };
    };
    const api = await timeRequests(server.pid, async (body) => {
      const created = await call('POST', '/api/submissions', body);
      if (created.length !== PER_REQUEST) throw new Error('bulk create returned the wrong count');
    });
    floor = await startDev({ persist, config: FLOOR_CONFIG, ready: '' });
    const viaFloor = async (body) => {
      const res = await fetch(floor.base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const created = await res.json();
      if (res.status !== 201 || created.length !== PER_REQUEST) throw new Error(`floor answered ${res.status}`);
    };
    await viaFloor(bodyOf(-1));
    const floored = await timeRequests(floor.pid, viaFloor);
    await floor.stop();
    floor = undefined;
    const perRequest = api.each;
    const createMs = perRequest.reduce((sum, ms) => sum + ms * PER_REQUEST, 0);
    console.error(`  … created ${CREATES} in ${createMs.toFixed(0)} ms`);

    async function listTimes() {
      // Walk to page 100 once for its cursor, then time page 1 and page 100 alternately.
      let after;
      for (let page = 1; page < FAR_PAGE; page += 1) {
        const res = await call('GET', `/api/submissions?limit=10${after ? `&after=${after}` : ''}`);
        after = res.pagination.next;
      }
      const p1 = [];
      const p100 = [];
      for (let i = 0; i < (smoke ? 1 : 3); i += 1) {
        await call('GET', '/api/submissions?limit=10');
        await call('GET', `/api/submissions?limit=10&after=${after}`);
      }
      for (let i = 0; i < iterations; i += 1) {
        let t = performance.now();
        const first = await call('GET', '/api/submissions?limit=10');
        p1.push(performance.now() - t);
        t = performance.now();
        const hundredth = await call('GET', `/api/submissions?limit=10&after=${after}`);
        p100.push(performance.now() - t);
        if (first.data.length !== 10 || hundredth.data.length !== 10) throw new Error('short page');
      }
      return { p1: median(p1), p100: median(p100) };
    }

    const small = await listTimes();
    console.error(`  … listed at ${CREATES}; seeding ${SEED_CHUNK * 10} rows`);

    // Seed to 100k rows: 99,000 more submissions with one submitter each, in SQL (recursive CTE).
    // The seed writes the same SQLite files, so wrangler dev is stopped meanwhile.
    await server.stop();
    const seedStart = performance.now();
    const sample = JSON.parse(d1(persist, 'SELECT template_id, template_version, document_ids, link_base FROM submissions LIMIT 1'))[0]
      .results[0];
    // Smoke: one statement for all ten chunks' rows; the full run keeps each wrangler call at 9,900.
    for (let chunk = 0; chunk < (smoke ? 1 : 10); chunk += 1) {
      const from = chunk * SEED_CHUNK + 1;
      const to = smoke ? SEED_CHUNK * 10 : from + SEED_CHUNK - 1;
      d1(
        persist,
        `INSERT INTO submissions (account_id, template_id, slug, status, source, link_base, template_version, document_ids, preferences, metadata, sent_at)
         WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
         SELECT 1, ${sample.template_id}, 'seed' || printf('%012d', i), 'pending', 'api', '${sample.link_base}', ${sample.template_version}, '${sample.document_ids}', '{}', '{}', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM n;
         INSERT INTO submitters (account_id, submission_id, uuid, slug, role_uuid, role, position, email, name, status, "values", metadata)
         SELECT 1, id, lower(hex(randomblob(16))), 'seedsig' || substr(slug, 5), 'role', 'First Party', 0, 'seed' || substr(slug, 5) || '@example.com', 'Seed', 'sent', '{}', '{}'
         FROM submissions WHERE slug BETWEEN 'seed${String(from).padStart(12, '0')}' AND 'seed${String(to).padStart(12, '0')}';`,
      );
    }
    const count = JSON.parse(d1(persist, 'SELECT count(*) AS n FROM submissions'))[0].results[0].n;
    const seedMs = performance.now() - seedStart;
    await startOwn();
    console.error(`  … seeded ${count} rows`);
    const large = await listTimes();

    const ratio = Math.max(large.p1 / small.p1, large.p100 / small.p100);
    console.log(`bench/submissions — wrangler dev, local D1, ${iterations} timed list requests per case`);
    console.log(
      `  create: ${CREATES} submissions in ${REQUESTS} bulk requests of ${PER_REQUEST}: ${median(perRequest).toFixed(2)} ms per submission, median request (target ≤ 1.5)`,
    );
    console.log(
      `          all ${REQUESTS}: ${(createMs / CREATES).toFixed(2)} ms per submission (${createMs.toFixed(0)} ms); each: ${perRequest.map((ms) => ms.toFixed(2)).join(' ')}`,
    );
    console.log(
      `  floor:  ${median(floored.each).toFixed(2)} ms per submission, median request (one D1 batch of the rows, the invitations queued); each: ${floored.each.map((ms) => ms.toFixed(2)).join(' ')}`,
    );
    console.log(
      `  ratio (median API / median floor): ${(median(perRequest) / median(floored.each)).toFixed(2)}; server CPU per submission: API ${api.cpu.toFixed(2)} ms, floor ${floored.cpu.toFixed(2)} ms`,
    );
    console.log(`  list at ${CREATES} rows:    page 1 ${small.p1.toFixed(1)} ms   page ${FAR_PAGE} ${small.p100.toFixed(1)} ms (median)`);
    console.log(
      `  list at ${count} rows:  page 1 ${large.p1.toFixed(1)} ms   page ${FAR_PAGE} ${large.p100.toFixed(1)} ms (median; seeded in ${(seedMs / 1000).toFixed(0)} s)`,
    );
    console.log(
      `  ratio 100k/1k: page 1 ${(large.p1 / small.p1).toFixed(2)}, page ${FAR_PAGE} ${(large.p100 / small.p100).toFixed(2)}; worst ${ratio.toFixed(2)} (target ≤ 1.3)`,
    );
  } finally {
    await floor?.stop();
    await server?.stop();
    held.remove();
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
