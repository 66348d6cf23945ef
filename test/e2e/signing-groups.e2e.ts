// Order groups and any-of signers in a real browser (issue 33 bar): three signers in groups [0, 0, 1] —
// the two of group 0 have their forms open at once and the signer of group 1 is invited only after both
// completed; and an any-of group of three where the second person signs from their own invitation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startBrowserSession, type BrowserSession } from './browser-session';
import type { DevServer } from './wrangler-dev';

const PORT = Number(process.env.E2E_GROUPS_PORT ?? 8768);
let server: DevServer;
let browser: Browser;
let session: BrowserSession | undefined;

const call: BrowserSession['call'] = (...args) => session!.call(...args);
const invitationLink: BrowserSession['invitationLink'] = (email) => session!.invitationLink(email);

/** A one-page template whose roles each fill one required text field. */
async function template(roles: string[]) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText('Approval', { x: 50, y: 740, size: 18, font });
  const res = await call('POST', '/api/templates/pdf', {
    name: 'Approval',
    documents: [{ name: 'approval', file: Buffer.from(await pdf.save()).toString('base64') }],
    submitters: roles.map((name) => ({ name })),
    fields: roles.map((role, i) => ({
      name: `${role} name`,
      type: 'text',
      role,
      required: true,
      areas: [{ page: 1, x: 0.1, y: 0.2 + i * 0.1, w: 0.35, h: 0.04 }],
    })),
  });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

/** Opens the link and brings the form up: the disclosure accepted, the one field on screen. */
async function openForm(page: Page, link: string) {
  await page.goto(link);
  await page.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check();
  await page.click('#disclosure-continue');
  await page.waitForSelector('#stepper');
}

async function fillAndSubmit(page: Page, name: string) {
  await page.fill('#field-input', name);
  await page.click('#submit');
  await page.waitForSelector('#completed', { timeout: 30_000 });
}

describe('order groups and any-of signers in a real browser', () => {
  beforeAll(async () => {
    session = await startBrowserSession(PORT);
    ({ server, browser } = session);
    // Setting up the local databases and starting wrangler dev takes minutes on a loaded 2-core machine.
  }, 600_000);
  afterAll(() => session?.stop());

  it('signs groups [0, 0, 1]: group 0 in parallel, group 1 invited only after both', async () => {
    const id = await template(['Buyer', 'Seller', 'Notary']);
    const emails = ['buyer@groups.e2e.test', 'seller@groups.e2e.test', 'notary@groups.e2e.test'];
    const created = await call('POST', '/api/submissions', {
      template_id: id,
      submitters: [
        { role: 'Buyer', email: emails[0], name: 'Bea Buyer', order: 0 },
        { role: 'Seller', email: emails[1], name: 'Sam Seller', order: 0 },
        { role: 'Notary', email: emails[2], name: 'Nia Notary', order: 1 },
      ],
    });
    expect(created.status).toBe(201);
    const [buyerLink, sellerLink] = await Promise.all([invitationLink(emails[0]), invitationLink(emails[1])]);
    expect(buyerLink).not.toBeNull();
    expect(sellerLink).not.toBeNull();
    expect(await invitationLink(emails[2])).toBeNull();

    // Both forms of group 0 are open at the same time in two browsers.
    const buyer = await (await browser.newContext()).newPage();
    const seller = await (await browser.newContext()).newPage();
    await Promise.all([openForm(buyer, buyerLink!), openForm(seller, sellerLink!)]);

    await fillAndSubmit(seller, 'Sam Seller');
    expect(await invitationLink(emails[2])).toBeNull();
    const notaryPage = await (await browser.newContext()).newPage();
    await notaryPage.goto(created.json.submitters[2].signing_url.replace(/^https?:\/\/[^/]+/, server.base));
    await expect(notaryPage.locator('#waiting').textContent()).resolves.toContain('Waiting for Bea Buyer to sign first.');

    await fillAndSubmit(buyer, 'Bea Buyer');
    const notaryLink = await invitationLink(emails[2]);
    expect(notaryLink).not.toBeNull();
    await openForm(notaryPage, notaryLink!);
    await fillAndSubmit(notaryPage, 'Nia Notary');

    const done = await call('GET', `/api/submissions/${created.json.id}`);
    expect(done.json.status).toBe('completed');
    expect(done.json.submitters.map((s: { status: string; order: number }) => [s.status, s.order])).toEqual([
      ['completed', 0],
      ['completed', 0],
      ['completed', 1],
    ]);
  });

  it('lets any one of three people sign: the second does, the others’ links then say who signed', async () => {
    const id = await template(['Approver']);
    const people = [
      { email: 'ann@anyof.e2e.test', name: 'Ann Approver' },
      { email: 'ben@anyof.e2e.test', name: 'Ben Approver' },
      { email: 'cat@anyof.e2e.test', name: 'Cat Approver' },
    ];
    const created = await call('POST', '/api/submissions', { template_id: id, submitters: [{ role: 'Approver', emails: people }] });
    expect(created.status).toBe(201);
    const links = await Promise.all(people.map((p) => invitationLink(p.email)));
    expect(links.every((l) => l !== null)).toBe(true);
    expect(new Set(links).size).toBe(3);

    const ben = await (await browser.newContext()).newPage();
    await openForm(ben, links[1]!);
    await fillAndSubmit(ben, 'Ben Approver');

    const done = await call('GET', `/api/submissions/${created.json.id}`);
    expect(done.json.status).toBe('completed');
    expect(done.json.submitters[0]).toMatchObject({ status: 'completed', email: people[1].email, name: people[1].name });
    for (const link of [links[0], links[2]]) {
      const other = await (await browser.newContext()).newPage();
      await other.goto(link!);
      await expect(other.locator('#signed-by-other').textContent()).resolves.toContain('already signed by Ben Approver');
    }
  });
});
