// A qes signer in a real browser (issue 18 › 3): the signing page's submit sends Chromium to the CSC v2
// imitation's authorization page, the signer approves there, the provider's redirect brings them back,
// and the signer is completed only then; the sealed PDF carries the provider's signature, valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain ES module of the test setup, without type declarations.
import { startCscImitation } from '../global-setup/csc-imitation.mjs';
import { startDevServer, type DevServer } from './wrangler-dev';
import { apiOf, fetchRetried, launchChromium, letterPdfBase64, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_PORT ?? 8799);
let server: DevServer;
let browser: Browser;
let imitation: { port: number; close(): Promise<void> };

const { call } = apiOf(() => server);

describe('a qes signer in a real browser', () => {
  beforeAll(async () => {
    imitation = await startCscImitation();
    server = await startDevServer(PORT, {
      vars: { QES_PROVIDER_ALLOW_HOSTS: `127.0.0.1:${imitation.port}` },
      from: await preparedSetup(),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
    await imitation?.close();
  });

  it('is sent to the provider on submit, approves there, comes back completed, and the sealed PDF verifies', async () => {
    const { submissionId, submitter, page } = await submittedToProvider('quinn.qualified@e2e.test');
    expect(new URL(page.url()).port).toBe(String(imitation.port));
    expect((await call('GET', `/api/submitters/${submitter.id}`)).json.status).not.toBe('completed');
    await page.click('#imitation-approve');
    await page.waitForSelector('#completed', { timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(server.base);
    expect((await call('GET', `/api/submitters/${submitter.id}`)).json.status).toBe('completed');

    let documents: { id: number }[] = [];
    for (let i = 0; i < 60 && documents.length === 0; i += 1) {
      const list = await call('GET', `/api/submissions/${submissionId}/documents`);
      if (list.status === 200 && list.json.sealed && list.json.documents?.length) documents = list.json.documents;
      else await new Promise((r) => setTimeout(r, 500));
    }
    expect(documents).toHaveLength(1);
    const pdf = await fetchRetried(`${server.base}/api/submissions/${submissionId}/documents/${documents[0].id}`, {
      headers: { 'X-Auth-Token': server.token },
    });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'e2e-qes-'));
    const file = path.join(dir, 'sealed.pdf');
    writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
    const pdfsig = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    const blocks = pdfsig.split(/^Signature #\d+:$/m).slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('Signer Certificate Common Name: Erika Mustermann (RSA)');
    for (const block of blocks) expect(block).toContain('Signature Validation: Signature is Valid.');
    rmSync(dir, { recursive: true, force: true });
  });

  it('who cancels at the provider sees why with a retry (no axe violations), and signs on the retry', async () => {
    const { submitter, page } = await submittedToProvider('rita.retry@e2e.test');
    await page.click('#imitation-deny');
    await page.waitForSelector('#qes-retry', { timeout: 30_000 });
    expect(await page.textContent('#qes-message')).toMatch(/\S/);
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(violations.map((v) => v.id)).toEqual([]);
    expect((await call('GET', `/api/submitters/${submitter.id}`)).json.status).not.toBe('completed');
    await page.click('#qes-retry-button');
    await page.waitForSelector('#imitation-approve', { timeout: 30_000 });
    await page.click('#imitation-approve');
    await page.waitForSelector('#completed', { timeout: 30_000 });
    expect((await call('GET', `/api/submitters/${submitter.id}`)).json.status).toBe('completed');
  });
});

/** A qes submission whose signer filled the form in Chromium and submitted: the page is at the provider. */
async function submittedToProvider(email: string): Promise<{ submissionId: number; submitter: { id: number; slug: string }; page: Page }> {
  const level = await call('PUT', '/api/settings/signature_level', {
    level: 'qes',
    provider: 'Imitation Trust',
    qes_provider_api_url: `http://127.0.0.1:${imitation.port}/csc/v2`,
    qes_provider_api_key: 'signing-service:csc-imitation-secret',
    qes_certificate_id: 'cred-rsa',
  });
  expect(level.status, level.text).toBe(200);
  const template = await call('POST', '/api/templates/pdf', {
    name: 'Qualified',
    documents: [{ name: 'qualified', file: await letterPdfBase64(['Qualified agreement']) }],
    fields: [{ name: 'Full name', type: 'text', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.04 }] }],
  });
  expect(template.status, template.text).toBe(201);
  const created = await call('POST', '/api/submissions', {
    template_id: template.json.id,
    send_email: false,
    preferences: { signature_level: 'qes' },
    submitters: [{ role: 'Signer', email, name: 'Quinn Qualified' }],
  });
  expect(created.status, created.text).toBe(201);
  const submitter = created.json.submitters[0];

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${server.base}/s/${submitter.slug}`);
  await page.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check();
  await page.click('#disclosure-continue');
  await page.waitForSelector('#stepper');
  // One field: its step is the last, with the submit button in place of next.
  await page.fill('#field-input', 'Quinn Qualified');
  await page.click('#submit');
  // The provider's own page: the signer approves the signature there.
  await page.waitForSelector('#imitation-approve', { timeout: 30_000 });
  return { submissionId: created.json.id, submitter, page };
}
