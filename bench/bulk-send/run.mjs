// bench/bulk-send: 10,000 rows end to end (issue 33 › 3) on wrangler dev with local D1 and Queues: one
// CSV upload to POST /api/templates/{id}/bulk_send, polled until GET /api/bulk_sends/{id} says
// completed; rows/s, and each row's latency from the upload to the moment its chunk was stored (the
// rows list's created_at) with its p50 and p99. Floor: the same rows sent the simplest way there is,
// POST /api/submissions with `submissions: [...]` 100 at a time one request after another (each row's
// latency: until its request answered). Ratio: bulk rows/s over floor rows/s. Both invite by email,
// so the messages queue delivers 10,000 invitations meanwhile, as it would in production.
//
// `--smoke`: 200 rows each way (two chunks), through the same code path.
//
//   node bench/bulk-send/run.mjs [--rows 10000] [--smoke]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { seedBenchAccount, smoke, startDev } from '../local-wrangler.mjs';

const ROWS = smoke ? 200 : Number(process.argv[process.argv.indexOf('--rows') + 1]) || 10_000;
const PER_REQUEST = 100;

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  // A server of its own (under bench/smoke.mjs on a copy of its state), limits off: the floor's hundred
  // requests and the polling would pass the per-minute rate limit; this measures the work.
  const persist = mkdtempSync(path.join(tmpdir(), 'bench-bulk-send-'));
  let server;
  try {
    const token = seedBenchAccount(persist);
    server = await startDev({ persist, vars: { LIMITS_DISABLED: 'true' } });
    const call = async (method, url, body) => {
      const res = await fetch(`${server.base}${url}`, {
        method,
        headers: { 'X-Auth-Token': token, ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
        body: body instanceof FormData ? body : body && JSON.stringify(body),
      });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };

    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Bench bulk send',
      documents: [{ name: 'bench.pdf', file: Buffer.from(await pdf.save()).toString('base64') }],
      fields: [
        { name: 'Company', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.04 }] },
        { name: 'Signature', type: 'signature', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] },
      ],
    });

    // The bulk send first, on an idle messages queue: the floor's 10,000 invitations, queued after it,
    // would otherwise be delivered ahead of its chunks (the queue is shared; docs/decisions.md › Bulk send).
    // The bulk send: one CSV upload, then polling until every row is stored.
    const lines = ['email,name,Company,metadata.n'];
    for (let n = 0; n < ROWS; n += 1) lines.push(`bulk${n}@example.com,"Bulk ${n}","Company ${n}, Inc.",${n}`);
    const form = new FormData();
    form.append('file', new File([`${lines.join('\r\n')}\r\n`], 'rows.csv', { type: 'text/csv' }));
    const startedAt = Date.now();
    const start = performance.now();
    const accepted = await call('POST', `/api/templates/${template.id}/bulk_send`, form);
    const acceptMs = performance.now() - start;
    let send = accepted;
    while (send.status !== 'completed') {
      await new Promise((r) => setTimeout(r, smoke ? 100 : 250));
      send = await call('GET', `/api/bulk_sends/${accepted.id}`);
    }
    const bulkMs = performance.now() - start;
    if (send.created !== ROWS || send.failed !== 0) throw new Error(`bulk send: ${JSON.stringify(send)}`);

    // Each row's latency: from the upload to its chunk's commit (server clock, the same machine).
    const latencies = [];
    let after;
    for (;;) {
      const page = await call('GET', `/api/bulk_sends/${accepted.id}/rows?status=created&limit=100${after ? `&after=${after}` : ''}`);
      for (const row of page.data) latencies.push(Date.parse(row.created_at) - startedAt);
      if (!page.pagination.next) break;
      after = page.pagination.next;
    }
    if (latencies.length !== ROWS) throw new Error(`rows list: ${latencies.length} of ${ROWS}`);

    // Floor: the same rows as bulk creates of 100, one request after another.
    const floorLatencies = [];
    const floorStart = performance.now();
    for (let r = 0; r < ROWS / PER_REQUEST; r += 1) {
      const created = await call('POST', '/api/submissions', {
        template_id: template.id,
        submissions: Array.from({ length: PER_REQUEST }, (_, i) => {
          const n = r * PER_REQUEST + i;
          return {
            submitters: [{ email: `floor${n}@example.com`, name: `Floor ${n}`, values: { Company: `Company ${n}` } }],
            metadata: { n: String(n) },
          };
        }),
      });
      if (created.length !== PER_REQUEST) throw new Error('bulk create returned the wrong count');
      const at = performance.now() - floorStart;
      for (let i = 0; i < PER_REQUEST; i += 1) floorLatencies.push(at);
    }
    const floorMs = performance.now() - floorStart;
    console.error(`  … floor: ${ROWS} rows in ${floorMs.toFixed(0)} ms`);

    const bulkRate = ROWS / (bulkMs / 1000);
    const floorRate = ROWS / (floorMs / 1000);
    console.log(
      `bulk-send — wrangler dev, local D1 and Queues, ${ROWS.toLocaleString('en-US')} rows, one role, invitations by email${smoke ? ' (smoke)' : ''}`,
    );
    console.log(
      `  bulk send: ${(bulkMs / 1000).toFixed(1)} s (upload accepted in ${acceptMs.toFixed(0)} ms), ${bulkRate.toFixed(0)} rows/s; ` +
        `row latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
    );
    console.log(
      `  floor (POST /api/submissions, ${PER_REQUEST} per request, sequential): ${(floorMs / 1000).toFixed(1)} s, ${floorRate.toFixed(0)} rows/s; ` +
        `row latency p50 ${percentile(floorLatencies, 50).toFixed(0)} ms, p99 ${percentile(floorLatencies, 99).toFixed(0)} ms`,
    );
    console.log(`  ratio bulk/floor rows/s: ${(bulkRate / floorRate).toFixed(2)}`);
  } finally {
    await server?.stop();
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
