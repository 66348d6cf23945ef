// Browser Rendering as a budget (docs/security.md › Browser Rendering): every launch, whatever starts it,
// takes one of its account's 6 a minute; uploads over it answer 429 with Retry-After, thumbnail batches
// (at most 3 of the 6) wait in the queue; a bulk DOCX request is one launch; thumbnails count as storage.
import { describe, expect, it } from 'vitest';
import { storedBytes } from '../../src/db/queries/storage';
import { BROWSER_LAUNCHES } from '../../src/services/rendering/browser-launches';
import { runThumbnailJob } from '../../src/services/templates/thumbnail-jobs';
import { thumbnailWidth, THUMBNAIL_WIDTHS } from '../../src/services/templates/thumbnails';
import { env } from 'cloudflare:test';
import { agreementDocx } from '../docx-fixtures';
import { toBase64 } from '../fixtures/pdfs';
import { api, createAccount, type TestAccount } from '../helpers';
import { launchesCounted, spendLaunches } from '../rendering-fixtures';
import { scopeOf } from '../shard-fixtures';
import { deliver, makePdf, storedThumbnails, templateFrom, throughWorker } from '../thumbnail-fixtures';

const values = { client_name: 'ACME Corp', discount: '15%', vip: false, item: 'Widget', price: '42.00' };

function htmlTemplate(a: TestAccount) {
  return api('POST', '/api/templates/html', { token: a.token, body: { name: 'Budget', html: '<p>Budgeted</p>' } });
}

function docxTemplate(a: TestAccount) {
  return api('POST', '/api/templates/docx', {
    token: a.token,
    body: {
      name: 'Agreement',
      documents: [{ name: 'agreement.docx', file: toBase64(agreementDocx) }],
      fields: [{ name: 'Initials', type: 'text', role: 'Client', areas: [{ page: 2, x: 0.1, y: 0.5, w: 0.3, h: 0.05 }] }],
    },
  });
}

async function templateCount(a: TestAccount): Promise<number> {
  return (await api('GET', '/api/templates', { token: a.token })).json.data.length;
}

function expectLaunchRefusal(res: { status: number; json: { error: string }; headers: Headers }) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('Retry-After'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.json.error).toBe(
    `This account has started 6 rendering browsers in the last minute, the most it may; HTML and DOCX documents can be rendered again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`,
  );
}

describe('the per-account launch budget', { timeout: 90_000 }, () => {
  it('is 6 launches a rolling minute, of which thumbnails may take 3', () => {
    expect(BROWSER_LAUNCHES).toEqual({ perWindow: 6, backgroundPerWindow: 3, windowMs: 60_000 });
  });

  it('counts the launch of an HTML template', async () => {
    const a = await createAccount();
    expect((await htmlTemplate(a)).status).toBe(201);
    expect(await launchesCounted(a.accountId)).toBe(1);
  });

  it('refuses an HTML template with 429, Retry-After and a sentence once the account has started 6 browsers this minute, storing nothing', async () => {
    const a = await createAccount();
    await spendLaunches(a.accountId, BROWSER_LAUNCHES.perWindow);
    const res = await htmlTemplate(a);
    expectLaunchRefusal(res);
    expect(await templateCount(a)).toBe(0);
    expect(await launchesCounted(a.accountId)).toBe(BROWSER_LAUNCHES.perWindow);
  });

  it('refuses a DOCX upload the same way', async () => {
    const a = await createAccount();
    await spendLaunches(a.accountId, BROWSER_LAUNCHES.perWindow);
    expectLaunchRefusal(await docxTemplate(a));
    expect(await templateCount(a)).toBe(0);
  });

  it('refuses a submission of a DOCX template the same way, creating none', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    expect(template.status).toBe(201);
    await spendLaunches(a.accountId, BROWSER_LAUNCHES.perWindow - 1);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.json.id, values, submitters: [{ role: 'Client', email: 'jane@example.com' }] },
    });
    expectLaunchRefusal(res);
    expect((await api('GET', '/api/submissions', { token: a.token })).json.data).toEqual([]);
  });

  it('is the account’s own: another account still prints', async () => {
    const spent = await createAccount();
    const other = await createAccount();
    await spendLaunches(spent.accountId, BROWSER_LAUNCHES.perWindow);
    expect((await htmlTemplate(other)).status).toBe(201);
  });

  it('prints every submission of a bulk request of a DOCX template with one launch', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    expect(template.status).toBe(201);
    const submissions = [1, 2, 3].map((i) => ({
      values: { ...values, client_name: `Client ${i}` },
      submitters: [{ role: 'Client', email: `c${i}@example.com` }],
    }));
    const res = await api('POST', '/api/submissions', { token: a.token, body: { template_id: template.json.id, submissions } });
    expect(res.status).toBe(201);
    expect(await launchesCounted(a.accountId)).toBe(2);
  });

  it('keeps a thumbnail batch waiting once 3 launches are counted, retrying when one frees, while uploads still print', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2));
    await spendLaunches(a.accountId, BROWSER_LAUNCHES.backgroundPerWindow);
    const queued = await throughWorker('GET', `/api/templates/${template.id}/documents/thumbnail`, a.token);
    const result = await deliver(queued.sent);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    const [delay] = result.retryDelays;
    expect(delay).toBeGreaterThanOrEqual(1);
    expect(delay).toBeLessThanOrEqual(60);
    expect(await storedThumbnails(a.accountId)).toEqual([]);
    expect(await launchesCounted(a.accountId)).toBe(BROWSER_LAUNCHES.backgroundPerWindow);
    expect((await htmlTemplate(a)).status).toBe(201);
  });
});

describe('thumbnail batches', { timeout: 60_000 }, () => {
  it('count the thumbnails’ bytes toward the account’s storage', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(3));
    const scope = await scopeOf(a.accountId);
    const before = await storedBytes(scope.db, a.accountId);
    const drawn = await runThumbnailJob(scope, {
      type: 'thumbnails',
      accountId: a.accountId,
      documentIds: [template.documents[0].id],
      widths: [200, 400],
    });
    expect(drawn.drawn).toBe(6);
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    const thumbnailBytes = listed.objects.filter((o) => o.key.includes('/thumbnails/')).reduce((sum, o) => sum + o.size, 0);
    expect(thumbnailBytes).toBeGreaterThan(0);
    expect(await storedBytes(scope.db, a.accountId)).toBe(before + thumbnailBytes);
  });

  it('draw only their own account’s documents', async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const template = await templateFrom(owner.token, await makePdf(1));
    const drawn = await runThumbnailJob(await scopeOf(owner.accountId), {
      type: 'thumbnails',
      accountId: other.accountId,
      documentIds: [template.documents[0].id],
      widths: [200],
    });
    expect(drawn).toEqual({ launched: false, drawn: 0, missingFiles: [] });
    expect(await storedThumbnails(owner.accountId)).toEqual([]);
    expect(await launchesCounted(other.accountId)).toBe(0);
  });

  it('draw only the fixed widths, whatever a message names', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(1));
    const drawn = await runThumbnailJob(await scopeOf(a.accountId), {
      type: 'thumbnails',
      accountId: a.accountId,
      documentIds: [template.documents[0].id],
      widths: [123, 5000],
    });
    expect(drawn.launched).toBe(false);
    expect(await storedThumbnails(a.accountId)).toEqual([]);
  });
});

describe('thumbnailWidth', () => {
  it('rounds a requested width to the nearest drawn width, halfway going up', () => {
    expect(THUMBNAIL_WIDTHS).toEqual([200, 400, 800, 1600]);
    const cases: [number, number][] = [
      [50, 200],
      [299, 200],
      [300, 400],
      [400, 400],
      [599, 400],
      [600, 800],
      [1199, 800],
      [1200, 1600],
      [1600, 1600],
    ];
    expect(cases.map(([asked]) => thumbnailWidth(asked))).toEqual(cases.map(([, drawn]) => drawn));
  });
});
