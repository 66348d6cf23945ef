// vitest globalSetup: starts the local servers tests talk to and provides their URLs to the workers.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDohResolverServer } from './doh-resolver-server';
import { startPdfToolsServer } from './pdf-tools-server';
import { startSmsProviderServer } from './sms-provider-server';
import { makePkcs12Fixtures, type Pkcs12Fixtures } from './pkcs12-fixtures';

declare module 'vitest' {
  export interface ProvidedContext {
    pdfToolsUrl: string;
    smsProviderUrl: string;
    dohResolverUrl: string;
    pkcs12: Pkcs12Fixtures;
  }
}

/**
 * Stops the run at once, with the command to run, when the system packages the tests check PDFs and
 * drive the browser with are missing (`npx vitest` skips the npm scripts that would install them).
 */
function requireSystemPackages() {
  const check = spawnSync('bash', [join(import.meta.dirname, '..', '..', 'scripts', 'install-system-deps.sh'), '--check']);
  if (check.status !== 0) throw new Error(check.stderr.toString().trim() || 'scripts/install-system-deps.sh --check failed');
}

export default async function setup(project: TestProject) {
  requireSystemPackages();
  const pdfTools = await startPdfToolsServer();
  const smsProvider = await startSmsProviderServer();
  const dohResolver = await startDohResolverServer();
  project.provide('pdfToolsUrl', pdfTools.url);
  project.provide('smsProviderUrl', smsProvider.url);
  project.provide('dohResolverUrl', dohResolver.url);
  project.provide('pkcs12', makePkcs12Fixtures());
  return async () => {
    pdfTools.server.close();
    smsProvider.server.close();
    dohResolver.server.close();
  };
}
