// What the embedding e2e files share: Chromium, a one-page template made through the API, and closing
// the host page's server.
import { chromium, type Browser } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import type { Server } from 'node:http';

/** Debian's Chromium, headless (CHROMIUM_PATH names another). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

type Call = (method: string, route: string, body?: unknown) => Promise<{ id: string }>;

/** A template of one blank page for the role Client, with one required text field "Full name" on it; its id. */
export async function fullNameTemplate(call: Call, name: string): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const template = await call('POST', '/api/templates/pdf', {
    name,
    documents: [{ name: 'contract', file: Buffer.from(await pdf.save()).toString('base64') }],
    submitters: [{ name: 'Client' }],
    fields: [{ name: 'Full name', type: 'text', role: 'Client', required: true, areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
  });
  return template.id;
}

export async function closeHost(host: { server: Server } | undefined): Promise<void> {
  if (!host) return;
  host.server.closeAllConnections();
  await new Promise((r) => host.server.close(r));
}
