// The signing page in a real browser (issue 6 bar): two sequential signers open their links from their
// invitation emails, fill text, date, checkbox and a drawn signature, and submit; the second is invited
// only after the first completed; the submission ends completed and its sealed PDF downloads valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  apiOf,
  fetchRetried,
  launchChromium,
  letterPdfBase64,
  outboxLink,
  sharedDevServer,
  uniqueEmail,
  type SharedServer,
} from './e2e-kit';

let server: SharedServer;
let browser: Browser;
const { call } = apiOf(() => server);

const invitationLink = (email: string) => outboxLink(server.base, email, 'invitation', /https?:\/\/\S+\/s\/[0-9A-Za-z]+/);

const twoPagePdf = () => letterPdfBase64(['Agreement page 1', 'Agreement page 2']);

async function createSubmission(template: any): Promise<{ id: number; emails: string[] }> {
  const emails = [uniqueEmail('first.signer'), uniqueEmail('second.signer')];
  const res = await call('POST', '/api/submissions', {
    template_id: template.id,
    submitters_order: 'sequential',
    send_email: true,
    submitters: [
      { role: 'Tenant', email: emails[0], name: 'First Signer' },
      { role: 'Landlord', email: emails[1], name: 'Second Signer' },
    ],
  });
  if (res.status !== 201) throw new Error(`POST /api/submissions: ${res.status} ${res.text}`);
  return { id: res.json.id, emails };
}

async function fillAndSign(page: Page, link: string, name: string) {
  await page.goto(link);
  await acceptDisclosure(page);
  await page.waitForSelector('#stepper');
  // The first page is on screen behind the fields: its stored image, or drawn by pdf.js while it has none.
  await page.waitForSelector('.page[data-drawn="true"]', { timeout: 60_000 });
  await page.fill('#field-input', name);
  await page.click('#next');
  await page.fill('#field-input', '2026-05-31');
  await page.click('#next');
  await page.check('#field-input');
  await page.click('#next');
  const pad = await page.waitForSelector('#signature-pad');
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 20; i += 1) await page.mouse.move(box.x + 20 + i * 12, box.y + box.height / 2 + Math.sin(i) * 25, { steps: 2 });
  await page.mouse.up();
  await page.click('#sig-apply');
  await page.waitForSelector('.area.filled img');
  if (process.env.E2E_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name.replace(/\W+/g, '-')}.png`, fullPage: true });
  await page.click('#submit');
  await page.waitForSelector('#completed', { timeout: 30_000 });
}

/** The electronic records disclosure comes before the form: tick the box by its label, then continue. */
async function acceptDisclosure(page: Page) {
  await page.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check();
  await page.click('#disclosure-continue');
}

describe('signing in a real browser', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('two sequential signers fill text, date, checkbox and a drawn signature, in order', async () => {
    const fields = (role: string) => [
      { name: `${role} name`, type: 'text', role, areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.35, h: 0.04 }] },
      { name: `${role} date`, type: 'date', role, areas: [{ page: 1, x: 0.5, y: 0.2, w: 0.2, h: 0.04 }] },
      { name: `${role} agrees`, type: 'checkbox', role, areas: [{ page: 1, x: 0.75, y: 0.2, w: 0.04, h: 0.03 }] },
      { name: `${role} signature`, type: 'signature', role, areas: [{ page: 2, x: 0.1, y: 0.6, w: 0.3, h: 0.08 }] },
    ];
    const created = await call('POST', '/api/templates/pdf', {
      name: 'Lease',
      documents: [{ name: 'lease', file: await twoPagePdf() }],
      submitters: [{ name: 'Tenant' }, { name: 'Landlord' }],
      fields: [...fields('Tenant'), ...fields('Landlord')],
    });
    expect(created.status).toBe(201);
    const submission = await createSubmission(created.json);

    const first = await invitationLink(submission.emails[0]);
    expect(first).not.toBeNull();
    expect(await invitationLink(submission.emails[1])).toBeNull();

    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await fillAndSign(page, first!.replace(/^https?:\/\/[^/]+/, server.base), 'Tina Tenant');

    const second = await invitationLink(submission.emails[1]);
    expect(second).not.toBeNull();
    const desktop = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillAndSign(desktop, second!.replace(/^https?:\/\/[^/]+/, server.base), 'Lars Landlord');

    const done = await call('GET', `/api/submissions/${submission.id}`);
    expect(done.json.status).toBe('completed');
    expect(done.json.submitters.map((s: any) => s.status)).toEqual(['completed', 'completed']);
    // The page's script opened each form (POST /s/:slug/open); fetching the link alone records nothing.
    expect(done.json.submitters.every((s: any) => typeof s.opened_at === 'string')).toBe(true);
    const values = Object.values(done.json.submitters[0].values);
    expect(values).toContain('Tina Tenant');
    expect(values).toContain('2026-05-31');
    expect(values).toContain(true);
    expect(values.some((v) => typeof v === 'string' && v.startsWith('data:image/png;base64,'))).toBe(true);

    // The sealing job runs on wrangler dev's local queue: wait for the sealed document, then download it
    // through the API and check it with pdfsig and qpdf.
    let documents: { id: number; download_url: string }[] = [];
    for (let i = 0; i < 60 && documents.length === 0; i += 1) {
      const list = await call('GET', `/api/submissions/${submission.id}/documents`);
      if (list.status === 200 && list.json.sealed && list.json.documents?.length) documents = list.json.documents;
      else await new Promise((r) => setTimeout(r, 500));
    }
    expect(documents).toHaveLength(1);
    const pdf = await fetchRetried(`${server.base}/api/submissions/${submission.id}/documents/${documents[0].id}`, {
      headers: { 'X-Auth-Token': server.token },
    });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'e2e-sealed-'));
    const file = path.join(dir, 'sealed.pdf');
    writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
    const pdfsig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    expect(pdfsig.stdout).toContain('Signature is Valid.');
    expect(pdfsig.stdout).toContain('Total document signed');
    expect(spawnSync('qpdf', ['--check', file], { encoding: 'utf8' }).status).toBe(0);
    // Both signers appear on the audit trail page.
    const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('First Signer');
    expect(text).toContain('Second Signer');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a signer declines with a reason from the page, and another delegates from the page', async () => {
    const created = await call('POST', '/api/templates/pdf', {
      name: 'Quote',
      documents: [{ name: 'quote', file: await twoPagePdf() }],
      submitters: [{ name: 'Client' }],
      fields: [{ name: 'Plan', type: 'select', options: ['Basic', 'Pro'], areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.2, h: 0.04 }] }],
    });
    const make = async (email: string) => {
      const res = await call('POST', '/api/submissions', { template_id: created.json.id, submitters: [{ email, name: 'Client' }] });
      return res.json.submitters[0].signing_url.replace(/^https?:\/\/[^/]+/, server.base) as string;
    };
    const page = await browser.newPage();
    await page.goto(await make(uniqueEmail('decliner')));
    await acceptDisclosure(page);
    await page.waitForSelector('#stepper');
    await page.selectOption('#field-input', 'Pro');
    await page.getByRole('button', { name: 'Decline' }).first().click();
    await page.fill('#decline-reason', 'The price is wrong');
    await page.click('#decline-confirm');
    await page.waitForSelector('#declined');

    await page.goto(await make(uniqueEmail('delegator')));

    await acceptDisclosure(page);
    await page.waitForSelector('#stepper');
    await page.getByRole('button', { name: 'Delegate to someone else' }).click();
    await page.fill('#delegate-name', 'Dee Legate');
    const deputy = uniqueEmail('deputy');
    await page.fill('#delegate-email', deputy);
    await page.click('#delegate-confirm');
    await page.waitForSelector('#delegated');
    expect(await invitationLink(deputy)).not.toBeNull();
  });
});
