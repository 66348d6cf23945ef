// CPU profile of POST /api/templates/pdf (the bench's 50-page file) in wrangler dev's workerd, through
// its inspector: the self time of the Worker's functions over N uploads, heaviest first. As in run.mjs
// the page images the uploads queue are held past the run, so the profile is the requests' own work
// (`--draw` lets them be drawn: their puppeteer client then runs in the same isolate).
//
//   node bench/templates/profile.mjs [--iterations 20] [--out profile.cpuprofile]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { profileWorker, selfTimes } from '../cpu-profile.mjs';
import { root, seedBenchAccount, smoke, startDev } from '../local-wrangler.mjs';
import { configHoldingPageImages, fiftyPagePdf, uploadVia } from './upload.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
// `--smoke` (bench/smoke.mjs, in CI): two uploads, the same path.
const iterations = smoke ? 2 : Number(arg('--iterations', 20));
const out = arg('--out', undefined);
const held = process.argv.includes('--draw') ? undefined : configHoldingPageImages(root);

const persist = mkdtempSync(path.join(tmpdir(), 'profile-templates-'));
let server;
try {
  const token = seedBenchAccount(persist);
  server = await startDev({ persist, config: held?.config });
  const pdf = await fiftyPagePdf();
  const upload = await uploadVia(server.base, token, pdf);
  for (let i = 0; i < (smoke ? 1 : 5); i += 1) await upload();
  const { profile, name } = await profileWorker(
    server,
    async () => {
      for (let i = 0; i < iterations; i += 1) await upload();
    },
    { intervalUs: Number(arg('--interval', 100)) },
  );
  if (out) writeFileSync(out, JSON.stringify(profile));
  const { total, rows } = selfTimes(profile);
  console.log(`${name}: ${(total / iterations).toFixed(1)} ms CPU per upload (${iterations} uploads)`);
  for (const [name, ms] of rows.slice(0, 40)) console.log(`  ${(ms / iterations).toFixed(2).padStart(7)} ms  ${name}`);
} finally {
  await server?.stop();
  held?.remove();
  rmSync(persist, { recursive: true, force: true });
}
