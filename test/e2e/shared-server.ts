// vitest globalSetup of the real-browser tests, for what the files share instead of making it each:
// - GET /setup: one `scripts/setup.mjs` run (two shards) with the vendor assets built, which a server
//   of two shards starts from a copy of (wrangler-dev.ts › copySetup): setup is most of a start;
// - GET /server: one `wrangler dev` (two shards, no extra vars) for every file that needs nothing else.
// Each is made on the first file's request (a run that needs neither makes neither) and removed with the
// run; until it is ready the answer is 202. Files ask this small HTTP server (e2e-kit.ts): vitest runs
// each file in a worker of its own, and these must outlive them all.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { setUpLocal, startDevServer, vendorAssets, type DevServer, type LocalSetup } from './wrangler-dev';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the HTTP server that hands out the prepared setup and the shared wrangler dev. */
    e2eSharedServer: string;
  }
}

/**
 * What a file gets of the shared server. The dev admin already has `adminPassword` (set here through
 * setup's one-time link), so any file may sign in with it; `setPasswordUrl` is spent.
 */
export type SharedServer = Omit<DevServer, 'output' | 'stop' | 'setPasswordUrl'> & { adminEmail: string; adminPassword: string };

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'shared e2e admin passphrase 30';

/** A port nobody listens on now (E2E_SHARED_PORT when set): the files with a server of their own keep their fixed ones. */
async function sparePort(): Promise<number> {
  if (process.env.E2E_SHARED_PORT) return Number(process.env.E2E_SHARED_PORT);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** Chooses the dev admin's password from setup's link, as the set-password form posts it. */
async function chooseAdminPassword(server: DevServer) {
  const token = new URL(server.setPasswordUrl!).searchParams.get('token')!;
  const res = await fetch(`${server.base}/password/set`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.base },
    body: new URLSearchParams({ token, password: ADMIN_PASSWORD, password_confirmation: ADMIN_PASSWORD }).toString(),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`POST /password/set: ${res.status} ${await res.text()}`);
}

/** Built once, copied by every server of two shards; its one-time link's origin is replaced per copy. */
async function prepareSetup(): Promise<LocalSetup> {
  const started = performance.now();
  await vendorAssets();
  const setup = await setUpLocal(mkdtempSync(join(tmpdir(), 'signing-e2e-prepared-')), 2, 'http://127.0.0.1');
  console.log(`vendor assets and setup.mjs (two shards) done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return setup;
}

async function startShared(prepared: Promise<LocalSetup>): Promise<{ server: DevServer; shared: SharedServer }> {
  const from = await prepared;
  const started = performance.now();
  const server = await startDevServer(await sparePort(), { from });
  try {
    await chooseAdminPassword(server);
  } catch (err) {
    await server.stop();
    throw err;
  }
  console.log(`shared wrangler dev ready on ${server.base} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { base, dir, config, token, accountId, partnerKey } = server;
  return { server, shared: { base, dir, config, token, accountId, partnerKey, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD } };
}

/** Something made on first request: its promise, and once settled its answer (JSON) or its failure. */
function onDemand<T>(make: () => Promise<T>, answer: (value: T) => unknown) {
  let promise: Promise<T> | undefined;
  let settled: { body: string } | { failure: string } | undefined;
  return {
    get promise() {
      return promise;
    },
    /** Starts it on the first call; the status and body of the answer now (202 while it is being made). */
    ask(): [number, string] {
      if (!promise) {
        promise = make();
        promise.then(
          (value) => (settled = { body: JSON.stringify(answer(value)) }),
          (err: Error) => (settled = { failure: err.stack ?? String(err) }),
        );
      }
      if (!settled) return [202, ''];
      return 'failure' in settled ? [500, settled.failure] : [200, settled.body];
    },
  };
}

export default async function setup(project: TestProject) {
  const prepared = onDemand(prepareSetup, (setup) => setup);
  const shared = onDemand(
    async () => {
      prepared.ask();
      return startShared(prepared.promise!);
    },
    ({ shared }) => shared,
  );
  // A request may not wait minutes for its headers: files poll until the answer is not 202.
  const control = createServer((req, res) => {
    const wanted = req.url === '/setup' ? prepared : req.url === '/server' ? shared : undefined;
    if (!wanted) return res.writeHead(404).end();
    const [status, body] = wanted.ask();
    res.writeHead(status, { 'Content-Type': status === 200 ? 'application/json' : 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  project.provide('e2eSharedServer', `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  return async () => {
    control.close();
    const server = await shared.promise?.then(({ server }) => server).catch(() => undefined);
    if (process.env.E2E_LOGS) console.log(server?.output());
    await server?.stop();
    const template = await prepared.promise?.catch(() => undefined);
    if (template) rmSync(template.dir, { recursive: true, force: true });
  };
}
