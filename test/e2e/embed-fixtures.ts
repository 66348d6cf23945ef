// What the embedding e2e files share beyond the kit (e2e-kit.ts): a one-page template made through the
// API, and closing the host page's server.
import type { Server } from 'node:http';
import { letterPdfBase64 } from './e2e-kit';

type Call = (method: string, route: string, body?: unknown) => Promise<{ id: string }>;

/** A template of one blank page for the role Client, with one required text field "Full name" on it; its id. */
export async function fullNameTemplate(call: Call, name: string): Promise<string> {
  const template = await call('POST', '/api/templates/pdf', {
    name,
    documents: [{ name: 'contract', file: await letterPdfBase64() }],
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
