// Issue 33 › 1: signing order groups. Submitters with the same `order` sign in parallel, groups go in
// ascending order; invitations, form.* events, turns and the signing page follow the groups; without
// `order` the submission's submitters_order rules as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount } from '../helpers';
import { completeValues, createTemplate, messagesTo, outboxRows, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let template: TemplateFixture;
const ROLES = ['Buyer', 'Seller', 'Agent'];

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ROLES);
});

type Created = { id: number; submitters: { id: number; slug: string; role: string; email: string; status: string; order?: number }[] };

async function create(orders: (number | undefined)[], extra: Record<string, unknown> = {}) {
  const tag = crypto.randomUUID().slice(0, 8);
  return api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters: ROLES.map((role, i) => ({
        role,
        name: `${role} Person`,
        email: `${role.toLowerCase()}-${tag}@example.com`,
        ...(orders[i] === undefined ? {} : { order: orders[i] }),
      })),
      ...extra,
    },
  });
}

const complete = (id: number, role: string) =>
  api('PUT', `/api/submitters/${id}`, { token: owner.token, body: { values: completeValues(role), completed: true } });

const statuses = async (id: number) =>
  ((await api('GET', `/api/submissions/${id}`, { token: owner.token })).json as Created).submitters.map((s) => s.status);

describe('order groups', () => {
  it('invites both submitters of group 0 at once and group 1 only after both completed', async () => {
    const res = await create([0, 0, 1]);
    expect(res.status).toBe(201);
    const s = res.json as Created;
    const [buyer, seller, agent] = s.submitters;
    expect(s.submitters.map((x) => [x.status, x.order])).toEqual([
      ['sent', 0],
      ['sent', 0],
      ['waiting', 1],
    ]);
    expect(await messagesTo(agent.email)).toHaveLength(0);
    const sent = await outboxRows("event = 'submitter.sent' AND json_extract(data, '$.submission.id') = ?", s.id);
    expect(sent.map((e) => e.data.submitter.email).sort()).toEqual([buyer.email, seller.email].sort());

    // Group 1 cannot sign nor be reminded before its turn.
    expect((await complete(agent.id, 'Agent')).json.error).toMatch(/Buyer signs first/);
    const early = await api('POST', `/api/submitters/${agent.id}/remind`, { token: owner.token });
    expect(early.status).toBe(422);
    expect(early.json.error).toContain('a later group');

    // Group 0 in any order: the second to finish (not the first listed) opens group 1.
    expect((await complete(seller.id, 'Seller')).status).toBe(200);
    expect(await statuses(s.id)).toEqual(['sent', 'completed', 'waiting']);
    expect(await messagesTo(agent.email)).toHaveLength(0);
    expect((await complete(buyer.id, 'Buyer')).status).toBe(200);
    expect(await statuses(s.id)).toEqual(['completed', 'completed', 'sent']);
    expect((await messagesTo(agent.email)).map((m) => m.kind)).toEqual(['invitation']);

    expect((await complete(agent.id, 'Agent')).status).toBe(200);
    expect((await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json.status).toBe('completed');
  });

  it('goes by ascending order, not by the order submitters are listed in', async () => {
    const s = (await create([2, 0, 1])).json as Created;
    expect(s.submitters.map((x) => x.status)).toEqual(['waiting', 'sent', 'waiting']);
    expect((await complete(s.submitters[1].id, 'Seller')).status).toBe(200);
    expect(await statuses(s.id)).toEqual(['waiting', 'completed', 'sent']);
  });

  it('shows a later group whom it waits for on its signing page', async () => {
    const s = (await create([0, 0, 1])).json as Created;
    const res = await api('GET', `/s/${s.submitters[2].slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="waiting"');
    expect(res.text).toContain('Waiting for Buyer Person and Seller Person to sign first.');
    await complete(s.submitters[0].id, 'Buyer');
    expect((await api('GET', `/s/${s.submitters[2].slug}`)).text).toContain('Waiting for Seller Person to sign first.');
  });

  it('keeps submitters_order when no submitter has an order, and shows no order then', async () => {
    const s = (await create([undefined, undefined, undefined])).json as Created;
    expect(s.submitters.map((x) => x.status)).toEqual(['sent', 'waiting', 'waiting']);
    expect(s.submitters.every((x) => !('order' in x))).toBe(true);
    const parallel = (await create([undefined, undefined, undefined], { submitters_order: 'parallel' })).json as Created;
    expect(parallel.submitters.map((x) => x.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('refuses to edit a draft’s order, which is set at creation', async () => {
    const draft = (await create([0, 0, 1], { draft: true })).json as Created;
    const res = await api('PUT', `/api/submissions/${draft.id}`, {
      token: owner.token,
      body: { submitters: [{ role: 'Agent', order: 0 }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitters[0]: order and emails are set when the submission is created and cannot be edited.');
    expect((await api('GET', `/api/submissions/${draft.id}`, { token: owner.token })).json.submitters[2].order).toBe(1);
  });

  it('refuses an order on some submitters but not others, and a negative order, with sentences', async () => {
    const mixed = await create([0, undefined, 1]);
    expect(mixed.status).toBe(422);
    expect(JSON.stringify(mixed.json)).toContain('submitters[1]: order is missing');
    const negative = await create([0, -1, 1]);
    expect(negative.status).toBe(422);
    expect(JSON.stringify(negative.json)).toContain('order');
  });
});
