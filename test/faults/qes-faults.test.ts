// Issue 28 › 10, faults lose nothing, for a qes signer (issue 18 › 3): every faultable call of the signing
// page's submit and the provider's callback (the CSC provider's token and signHash calls, the TSA, R2,
// D1), and of the sealing and delivery after it, fails once, before or after its work. The signer goes
// through the retry page as the page offers it; in the end the signer is completed once, the submission
// sealed once and every event delivered under one delivery id. The matrix it prints is in docs/faults.md.
import { afterAll, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { api, createAccount, shardOf } from '../helpers';
import { answerConsent, imitationCredentials } from '../csc-fixtures';
import { acceptDisclosure, page } from '../signing/fixtures';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';
import { drainFor, receiverHook } from '../webhook-fixtures';
import { faultEachCall, withFaults, type Call, type FaultKind, type FaultPlan, type Faults } from '../fault-injection';
import {
  lastEventOf,
  matrixTable,
  newOutcome,
  problemsOf,
  settle,
  workerFetch,
  type Flow,
  type MatrixRow,
  type Outcome,
} from '../fault-scenarios';

const EVENTS = ['form.completed', 'submitter.completed', 'signing.complete', 'submission.completed', 'document.generated'];
const KINDS: readonly FaultKind[] = ['d1.batch', 'd1.write', 'r2.put', 'queue.send', 'fetch.tsa', 'fetch.csc', 'fetch.webhook'];

type QesFlow = Flow & { slug: string; template: TemplateFixture };

let tag = 0;

/** An account at level qes with the CSC imitation, a pending qes submission of one signer, an endpoint. */
async function prepare(): Promise<QesFlow> {
  const account = await createAccount({ name: 'Qualified Faults' });
  const credentials = imitationCredentials('cred-rsa');
  const level = await api('PUT', '/api/settings/signature_level', {
    token: account.token,
    body: {
      level: 'qes',
      provider: 'Imitation Trust',
      qes_provider_api_url: credentials.apiUrl,
      qes_provider_api_key: credentials.apiKey,
      qes_certificate_id: credentials.certificateId,
    },
  });
  expect(level.status).toBe(200);
  const template = await createTemplate(account.token, ['Signer']);
  tag += 1;
  const created = await api('POST', '/api/submissions', {
    token: account.token,
    body: {
      template_id: template.id,
      preferences: { signature_level: 'qes' },
      submitters: [{ role: 'Signer', name: 'Quinn Signer', email: `q${tag}-${crypto.randomUUID().slice(0, 6)}@example.com` }],
    },
  });
  expect(created.status).toBe(201);
  const slug = created.json.submitters[0].slug;
  expect((await page('POST', `/s/${slug}/open`, { body: {} })).status).toBe(200);
  await acceptDisclosure(slug);
  await drainFor(account.accountId);
  const { receiver } = await receiverHook(account.token);
  const shard = await shardOf(account.accountId);
  return {
    accountId: account.accountId,
    submissionId: created.json.id,
    submitterId: created.json.submitters[0].id,
    receiver,
    shard,
    lastEventBefore: await lastEventOf(shard, account.accountId),
    slug,
    template,
  };
}

const statusOf = async (flow: Flow) =>
  (await flow.shard.prepare('SELECT status FROM submitters WHERE id = ?').bind(flow.submitterId).first<string>('status'))!;

/**
 * The signer as the page leads them: submit (again, on an error), authorize at the provider, come back;
 * on the retry page, GET /s/{slug}/qes/retry for a new authorization. Returns the answers seen.
 */
async function sign(flow: QesFlow, faulty: Bindings, faults: Faults): Promise<string[]> {
  const uuid = (name: string) => flow.template.fields.find((f) => f.name === `Signer ${name}`)!.uuid;
  const values = {
    [uuid('Name')]: 'Quinn Signer',
    [uuid('Signature')]: 'Quinn Signer',
    [uuid('Date')]: '2026-11-27',
    [uuid('Agree')]: true,
  };
  const answers: string[] = [];
  let authorizationUrl: string | null = null;
  for (let step = 0; step < 4 && (await statusOf(flow)) !== 'completed'; step++) {
    if (!authorizationUrl) {
      faults.phase = 'signing page submit';
      const submitted = await workerFetch(faulty, 'POST', `/s/${flow.slug}/submit`, {
        headers: { Origin: 'https://api.test' },
        body: { values },
      });
      answers.push(`submit ${submitted.status}`);
      authorizationUrl = submitted.json?.authorization_url ?? null;
      continue;
    }
    const back = await answerConsent(authorizationUrl, 'approve');
    faults.phase = 'qes callback';
    const callback = await workerFetch(faulty, 'GET', `/s/${flow.slug}/qes/callback?${back}`);
    answers.push(`callback ${callback.status}`);
    if (callback.status === 303 || (await statusOf(flow)) === 'completed') break;
    faults.phase = 'qes retry page';
    const retry = await workerFetch(faulty, 'GET', `/s/${flow.slug}/qes/retry`);
    answers.push(`retry ${retry.status}`);
    authorizationUrl = retry.status === 303 && retry.location?.includes('/oauth2/authorize') ? retry.location : null;
  }
  return answers;
}

async function run(plan: FaultPlan): Promise<{ outcome: Outcome; calls: Call[] }> {
  const flow = await prepare();
  const { faults, env: faulty } = withFaults(plan);
  const outcome = newOutcome();
  faults.interceptFetch();
  try {
    outcome.answers = await sign(flow, faulty, faults);
    const calls = await settle(flow, faulty, faults, outcome);
    outcome.problems = await problemsOf(flow, EVENTS);
    return { outcome, calls };
  } finally {
    faults.restore();
  }
}

let clean: Call[] = [];
const matrix: MatrixRow[] = [];

describe('faults on the way from a qes signature to delivery', () => {
  it('without a fault: signed at the provider once, sealed once, five events delivered once each', async () => {
    const { outcome, calls } = await run(null);
    clean = calls;
    expect(outcome.problems).toEqual([]);
    expect(outcome.answers).toEqual(['submit 200', 'callback 303']);
    expect(outcome.ids).toBe(outcome.posts);
    expect(outcome.ids).toBeGreaterThanOrEqual(EVENTS.length);
    expect(calls.filter((c) => c.kind === 'fetch.csc').map((c) => c.what)).toEqual(
      expect.arrayContaining(['/csc/v2/credentials/info', '/csc/v2/signatures/signHash']),
    );
  }, 60_000);

  for (const kind of KINDS) {
    for (const mode of ['before', 'after'] as const) {
      it(`${kind} failing ${mode} its work, each call once: nothing lost or doubled`, async () => {
        expect(await faultEachCall(clean, kind, mode, run, matrix)).toEqual([]);
      }, 300_000);
    }
  }
});

afterAll(() => {
  if (matrix.length) console.log(matrixTable('qes signature → sealing → outbox → delivery', matrix));
});
