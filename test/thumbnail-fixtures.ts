// Thumbnail tests through the Worker with a document queue producer that records what is sent (the test
// configuration's sealing queue has no consumer), and delivery of what was recorded to the real consumer.
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../src/index';
import type { DocumentQueueBody } from '../src/queues/sealing';
import type { ThumbnailQueueBody } from '../src/env';
import { makePdf, toBase64 } from './fixtures/pdfs';
import { api, clientAddress } from './helpers';

export type CreatedTemplate = {
  id: string;
  documents: { id: number; uuid: string; page_count: number; thumbnail_url: string }[];
  thumbnail_url: string;
};

export async function templateFrom(token: string, pdfs: Uint8Array[] | Uint8Array, name = 'Thumbs'): Promise<CreatedTemplate> {
  const files = Array.isArray(pdfs) ? pdfs : [pdfs];
  const documents = files.map((pdf, i) => ({ name: `${name} ${i + 1}`, file: toBase64(pdf) }));
  const res = await api('POST', '/api/templates/pdf', { token, body: { name, documents } });
  if (res.status !== 201) throw new Error(`template create answered ${res.status}: ${res.text}`);
  return res.json;
}

export { makePdf };

export type WorkerAnswer = { status: number; headers: Headers; bytes: Uint8Array; json: () => unknown; sent: ThumbnailQueueBody[] };

/** A request through the Worker whose SEALING_QUEUE records what it is sent (and sends nothing on). */
export async function throughWorker(
  method: string,
  path: string,
  token: string,
  bindings: Partial<typeof env> = {},
): Promise<WorkerAnswer> {
  const sent: ThumbnailQueueBody[] = [];
  const queue = {
    send: async (body: ThumbnailQueueBody) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: ThumbnailQueueBody }>) => void sent.push(...[...messages].map((m) => m.body)),
  };
  const request = new Request(`https://api.test${path}`, {
    method,
    headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': clientAddress() },
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, { ...env, SEALING_QUEUE: queue as unknown as Queue<DocumentQueueBody>, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)), sent };
}

let counter = 0;

/**
 * Delivers recorded messages to the real queue consumer; returns what it acknowledged and retried, and
 * the delay each retry asked for (the test batch's own result does not keep it).
 */
export async function deliver(bodies: ThumbnailQueueBody[]) {
  const batch = createMessageBatch<DocumentQueueBody>(
    'signing-service-sealing',
    bodies.map((body) => ({ id: `thumbs-${++counter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const retryDelays: (number | undefined)[] = [];
  const messages = batch.messages.map((m) => ({
    id: m.id,
    timestamp: m.timestamp,
    body: m.body,
    attempts: m.attempts,
    ack: () => m.ack(),
    retry: (options?: QueueRetryOptions) => {
      retryDelays.push(options?.delaySeconds);
      m.retry(options);
    },
  }));
  const ctx = createExecutionContext();
  await worker.queue({ ...batch, queue: batch.queue, messages } as unknown as MessageBatch<DocumentQueueBody>, env, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryDelays };
}

/** Keys of the thumbnails stored for an account, from `/thumbnails/` on. */
export async function storedThumbnails(accountId: number): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: `templates/${accountId}/` });
  return listed.objects
    .map((o) => o.key)
    .filter((key) => key.includes('/thumbnails/'))
    .map((key) => key.slice(key.indexOf('/thumbnails/')))
    .sort();
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (signature.some((b, i) => png[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
