// vitest globalSetup of the real-browser tests: one `wrangler dev` (two shards, no extra vars) that every
// file needing nothing else shares, instead of a setup and a start per file. It starts on the first
// file's request (a run of only files with their own server never starts it) and stops with the run.
// Files ask a small HTTP server of this process for it (e2e-kit.ts › sharedDevServer): vitest runs each
// file in a worker of its own, and the server must outlive them all.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startDevServer, type DevServer } from './wrangler-dev';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the HTTP server that hands out the shared wrangler dev (GET /server). */
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

async function startShared(): Promise<{ server: DevServer; shared: SharedServer }> {
  const started = performance.now();
  const server = await startDevServer(await sparePort());
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

export default async function setup(project: TestProject) {
  let starting: Promise<{ server: DevServer; shared: SharedServer }> | undefined;
  let failure = '';
  let ready: SharedServer | undefined;
  // 202 while starting (a request may not wait minutes for its headers), 200 with the server once up.
  const control = createServer((req, res) => {
    if (req.url !== '/server') return res.writeHead(404).end();
    if (!starting) {
      starting = startShared();
      starting.then(
        ({ shared }) => (ready = shared),
        (err: Error) => (failure = err.stack ?? String(err)),
      );
    }
    if (failure) return res.writeHead(500, { 'Content-Type': 'text/plain' }).end(failure);
    if (!ready) return res.writeHead(202).end();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(ready));
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  project.provide('e2eSharedServer', `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  return async () => {
    control.close();
    const server = await starting?.then(({ server }) => server).catch(() => undefined);
    if (process.env.E2E_LOGS) console.log(server?.output());
    await server?.stop();
  };
}
