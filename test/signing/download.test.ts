// GET /s/:slug/download: the signer's own signed copy, once the submission is sealed.
import { createExecutionContext, createMessageBatch, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { SealingQueueBody } from '../../src/env';
import { checkPdf } from '../pdf-tools';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { shardNumberOf } from '../submission-fixtures';
import { page, signingFixture, acceptDisclosure } from './fixtures';

async function seal(accountId: number, submissionId: number) {
  const shard = await shardNumberOf(accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `d${submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('GET /s/:slug/download', () => {
  it('gives the signer the sealed PDF once sealed, and 404 before', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    expect((await SELF.fetch(`https://api.test/s/${slug}/download`)).status).toBe(404);
    await acceptDisclosure(slug);
    const done = await page('POST', `/s/${slug}/submit`, {
      body: { values: { [f.field('Full name')]: 'Dee Downloader', [f.field('Signature')]: 'Dee' } },
    });
    expect(done.status).toBe(200);
    expect((await SELF.fetch(`https://api.test/s/${slug}/download`)).status).toBe(404);
    await seal(f.account.accountId, f.submissionId);
    const page2 = await SELF.fetch(`https://api.test/s/${slug}`);
    expect(await page2.text()).toContain(`/s/${slug}/download`);
    const res = await SELF.fetch(`https://api.test/s/${slug}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="/);
    const { pdfsig, text } = await checkPdf(new Uint8Array(await res.arrayBuffer()));
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(text.output).toContain('Dee Downloader');
  });

  it('answers 404 for an unknown link', async () => {
    expect((await SELF.fetch('https://api.test/s/NoSuchSlug000000/download')).status).toBe(404);
  });
});
