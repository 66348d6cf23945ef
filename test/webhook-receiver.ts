// Talks to the real HTTP receiver (test/receiver/server.mjs) from inside the Workers runtime.
import { env } from 'cloudflare:test';

export type ReceiverConfig = {
  secret?: string;
  failFirst?: number;
  failStatus?: number;
  redirectTo?: string;
  delayMs?: number;
  responseBody?: string;
  stallBodyMs?: number;
  /** `GET /files/<name>` answers these bytes (fileUrl). */
  fileBase64?: string;
};

export type ReceivedDelivery = {
  headers: Record<string, string>;
  body: string;
  signatureValid: boolean;
  answeredStatus: number;
  receivedAt: number;
};

let counter = 0;

export function receiverBase(): string {
  return `http://127.0.0.1:${env.RECEIVER_PORT}`;
}

/** A fresh receiver path with its own behaviour; returns the URL to subscribe. */
export async function newReceiver(config: ReceiverConfig = {}): Promise<{ name: string; url: string }> {
  counter += 1;
  const name = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${counter}`;
  const res = await fetch(`${receiverBase()}/_control/${name}`, { method: 'PUT', body: JSON.stringify(config) });
  if (res.status !== 204) throw new Error(`receiver control answered ${res.status}`);
  return { name, url: `${receiverBase()}/hooks/${name}` };
}

/** Where a receiver made with `fileBase64` serves its file. */
export function fileUrl(name: string): string {
  return `${receiverBase()}/files/${name}`;
}

export async function receivedBy(name: string): Promise<ReceivedDelivery[]> {
  const res = await fetch(`${receiverBase()}/_control/${name}`);
  return ((await res.json()) as { deliveries: ReceivedDelivery[] }).deliveries;
}
