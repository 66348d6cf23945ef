// vitest globalSetup: starts the local servers tests talk to and provides their URLs to the workers.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startPdfToolsServer } from './pdf-tools-server';
import { startSmsProviderServer } from './sms-provider-server';

declare module 'vitest' {
  export interface ProvidedContext {
    pdfToolsUrl: string;
    smsProviderUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const pdfTools = await startPdfToolsServer();
  const smsProvider = await startSmsProviderServer();
  project.provide('pdfToolsUrl', pdfTools.url);
  project.provide('smsProviderUrl', smsProvider.url);
  return async () => {
    pdfTools.server.close();
    smsProvider.server.close();
  };
}
