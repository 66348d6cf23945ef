// vitest globalSetup: starts the local servers tests talk to and provides their URLs to the workers.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startPdfToolsServer } from './pdf-tools-server';

declare module 'vitest' {
  export interface ProvidedContext {
    pdfToolsUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const pdfTools = await startPdfToolsServer();
  project.provide('pdfToolsUrl', pdfTools.url);
  return async () => {
    pdfTools.server.close();
  };
}
