// What the real-browser tests share: Chromium with the options every file uses, the API of a running
// server called two ways (the reply whatever its status, or the JSON of a success), small PDFs, unique
// addresses, and the one `wrangler dev` the files with the default configuration share (shared-server.ts).
import { chromium, type Browser } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { inject } from 'vitest';
import type { SharedServer } from './shared-server';
import type { LocalSetup } from './wrangler-dev';

export type { SharedServer };

/** Debian's Chromium (or CHROMIUM_PATH), headless, without the sandbox a container lacks. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** fetch, retried once when an idle keep-alive connection was closed under it (wrangler closes idle ones). */
export async function fetchRetried(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** `json`: the parsed body (any: each route answers its own shape), undefined when empty or not JSON. */
export type Reply = { status: number; json: any; text: string };

export type Api = {
  /** The reply whatever its status. `headers` replace the default authentication. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** The JSON of a reply under 300; anything else throws with the method, path, status and body. */
  ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
};

/**
 * The API of the server `target()` names when a call is made (files assign theirs in beforeAll), with
 * its dev account's token as X-Auth-Token unless a call gives its own headers.
 */
export function apiOf(target: () => { base: string; token?: string }): Api {
  async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply> {
    const { base, token } = target();
    const auth = headers ?? (token ? { 'X-Auth-Token': token } : {});
    const res = await fetchRetried(`${base}${path}`, {
      method,
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
  return {
    call,
    async ok(method, path, body, headers) {
      const reply = await call(method, path, body, headers);
      if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
      return reply.json;
    },
  };
}

/** A PDF of US Letter pages, one per entry, each entry written at its top (a blank page for ''). */
export async function letterPdf(texts: string[] = ['']): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = texts.some(Boolean) ? await pdf.embedFont(StandardFonts.Helvetica) : undefined;
  for (const text of texts) {
    const page = pdf.addPage([612, 792]);
    if (text) page.drawText(text, { x: 50, y: 740, size: 18, font });
  }
  return Buffer.from(await pdf.save());
}

/** letterPdf as base64, the form the API takes a document's file in. */
export async function letterPdfBase64(texts: string[] = ['']): Promise<string> {
  return (await letterPdf(texts)).toString('base64');
}

/**
 * The first link matching `pattern` in the development outbox's messages of `kind` to `to`, or null;
 * `waitMs` polls that long first (the outbox is written after the response that sends the message).
 */
export async function outboxLink(base: string, to: string, kind: string, pattern: RegExp, { waitMs = 0 } = {}): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const res = await fetchRetried(`${base}/dev/outbox?to=${encodeURIComponent(to)}&kind=${kind}`);
    const { data } = (await res.json()) as { data: { text: string }[] };
    const match = data[0]?.text.match(pattern);
    if (match) return match[0];
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const run = Date.now().toString(36);
let counter = 0;

/**
 * An address no other test of any file uses (`first.signer` → `first.signer.<run>-<n>@e2e.test`): files
 * that share a server, and so its outbox, find only their own messages.
 */
export function uniqueEmail(local: string): string {
  counter += 1;
  return `${local}.${run}-${process.pid}-${counter}@e2e.test`;
}

/** What shared-server.ts hands out at `path`, once it is ready. */
async function fromSharedServer<T>(path: string): Promise<T> {
  const control = inject('e2eSharedServer');
  for (;;) {
    const res = await fetch(`${control}${path}`);
    if (res.status === 200) return (await res.json()) as T;
    if (res.status !== 202) throw new Error(`GET ${path} of the shared server failed:\n${await res.text()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The `wrangler dev` with two shards and no extra vars that the files needing nothing else share,
 * started by the first file that asks (shared-server.ts). It lives for the whole run: its database holds
 * what earlier files made, so a file reads only what it made itself (uniqueEmail, ids it got back).
 */
export function sharedDevServer(): Promise<SharedServer> {
  return fromSharedServer('/server');
}

/**
 * The run's one setup of two shards (vendor assets built), for a file starting a server of its own:
 * `startDevServer(port, { from: await preparedSetup() })` or `copySetup(await preparedSetup(), base)`.
 */
export function preparedSetup(): Promise<LocalSetup> {
  return fromSharedServer('/setup');
}
