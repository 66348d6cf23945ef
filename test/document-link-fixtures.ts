// Fixtures for the public document link tests: completed (and sealed) submissions, raw downloads.
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import worker from '../src/index';
import type { ShardStamp } from '../src/lib/shard-queues';
import type { SealingQueueBody } from '../src/env';
import { api, shardOf, type TestAccount } from './helpers';
import { shardNumberOf } from './shard-fixtures';
import { completeValues, createTemplate } from './submission-fixtures';

export type LinkedSubmission = { id: number; documentId: number };

/** A submission of a one-signer template; completed unless told otherwise. */
export async function submissionOf(owner: TestAccount, options: { complete?: boolean } = {}): Promise<LinkedSubmission> {
  const template = await createTemplate(owner.token, ['Buyer']);
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: { template_id: template.id, submitters: [{ role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com` }] },
  });
  expect(res.status).toBe(201);
  const submitterId = res.json.submitters[0].id as number;
  if (options.complete !== false) {
    const done = await api('PUT', `/api/submitters/${submitterId}`, {
      token: owner.token,
      body: { values: completeValues('Buyer'), completed: true },
    });
    expect(done.status).toBe(200);
  }
  const read = await api('GET', `/api/submissions/${res.json.id}`, { token: owner.token });
  const documentId = read.json.documents?.[0]?.id ?? (await templateDocumentIdOf(owner.accountId, res.json.id));
  return { id: res.json.id, documentId };
}

async function templateDocumentIdOf(accountId: number, submissionId: number): Promise<number> {
  const row = await (await shardOf(accountId))
    .prepare('SELECT document_ids FROM submissions WHERE id = ?')
    .bind(submissionId)
    .first<{ document_ids: string }>();
  return (JSON.parse(row!.document_ids) as number[])[0];
}

let counter = 0;
/** Runs the sealing job on the submission, as the sealing queue would. */
export async function seal(owner: TestAccount, submissionId: number): Promise<void> {
  const shard = await shardNumberOf(owner.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `links-seal-${++counter}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
}

/** The sealed file as stored in R2. */
export async function storedPdf(owner: TestAccount, submissionId: number, documentId: number): Promise<Uint8Array> {
  const row = await (await shardOf(owner.accountId))
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ? AND template_document_id = ?')
    .bind(submissionId, documentId)
    .first<{ r2_key: string }>();
  return new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
}

/** A credential-less request to a public link, body read as bytes. */
export async function open(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const res = await SELF.fetch(url, { method: init.method ?? 'GET', headers: { 'CF-Connecting-IP': '203.0.113.9', ...init.headers } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
}

export async function mint(owner: TestAccount, s: LinkedSubmission, body?: unknown) {
  return api('POST', `/api/submissions/${s.id}/documents/${s.documentId}/link`, { token: owner.token, body });
}
