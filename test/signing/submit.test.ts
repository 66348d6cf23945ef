// POST /s/:slug/submit: completing from the signing page (spec › What signers must be able to do, point 4).
import { describe, expect, it } from 'vitest';
import { eventsOf, messagesTo, page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';
import { api, shardOf } from '../helpers';

const twoRoles = {
  roles: ['First', 'Second'],
  fields: [
    { name: 'First name', type: 'text', role: 'First' },
    { name: 'First signature', type: 'signature', role: 'First' },
    { name: 'Second name', type: 'text', role: 'Second' },
  ],
};
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('POST /s/:slug/submit', () => {
  it('completes the signer, fires form.completed and submitter.completed, and invites the next signer only then', async () => {
    const f = await signingFixture(twoRoles);
    const [first, second] = f.submitters;
    expect(await messagesTo(second.email, 'invitation')).toHaveLength(0);
    await acceptDisclosure(first.slug);
    const res = await page('POST', `/s/${first.slug}/submit`, {
      body: { values: { [f.field('First name')]: 'Ann', [f.field('First signature')]: PNG } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'completed', submission_status: 'pending', redirect_url: `/s/${first.slug}` });
    const row = await submitterRow(first.id);
    expect(row).toMatchObject({ status: 'completed', verification_method: 'link' });
    expect(JSON.parse(row.values)[f.field('First signature')]).toBe(PNG);
    expect((await eventsOf(f.account.accountId, 'form.completed')).map((e) => e.data.submitter.email)).toEqual([first.email]);
    expect(await eventsOf(f.account.accountId, 'submitter.completed')).toHaveLength(1);
    expect(await messagesTo(second.email, 'invitation')).toHaveLength(1);
    expect((await submitterRow(second.id)).status).toBe('sent');
  });

  it('completes the submission when the last signer submits', async () => {
    const f = await signingFixture(twoRoles);
    await acceptDisclosure(f.submitters[0].slug);
    await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: { values: { [f.field('First name')]: 'Ann', [f.field('First signature')]: 'Ann Typed' } },
    });
    await acceptDisclosure(f.submitters[1].slug);
    const res = await page('POST', `/s/${f.submitters[1].slug}/submit`, { body: { values: { [f.field('Second name')]: 'Bob' } } });
    expect(res.json.submission_status).toBe('completed');
    expect(await eventsOf(f.account.accountId, 'submission.completed')).toHaveLength(1);
    const read = await api('GET', `/api/submissions/${f.submissionId}`, { token: f.account.token });
    expect(read.json.status).toBe('completed');
  });

  it('refuses a submit with a required field blank, naming it', async () => {
    const f = await signingFixture(twoRoles);
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('First name')]: 'Ann' } } });
    expect(res.status).toBe(422);
    // The signer's sentence (the catalog's), which the page's own check shows too.
    expect(res.json.error).toBe('“First signature” is required.');
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('refuses a signer whose turn has not come', async () => {
    const f = await signingFixture(twoRoles);
    await acceptDisclosure(f.submitters[1].slug);
    const res = await page('POST', `/s/${f.submitters[1].slug}/submit`, { body: { values: { [f.field('Second name')]: 'Bob' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('It is not your turn yet: others sign before you.');
  });

  it('does not require a field its condition hides, and clears its value', async () => {
    const f = await signingFixture({
      fields: [
        { name: 'Married', type: 'checkbox', required: false },
        {
          name: 'Spouse',
          type: 'text',
          preferences: { condition: { action: 'show', conditions: [{ field_uuid: '', operator: 'checked' }] } },
        },
      ],
    });
    // The condition names the checkbox by uuid, known only after creation: set it through the template snapshot.
    const married = f.field('Married');
    const spouse = f.field('Spouse');
    await (await shardOf(f.account.accountId))
      .prepare(`UPDATE template_versions SET snapshot = replace(snapshot, '"field_uuid":""', '"field_uuid":"${married}"')`)
      .run();
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [married]: false, [spouse]: 'Ghost' } } });
    expect(res.status).toBe(200);
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[spouse]).toBeNull();
  });
});

describe('POST /s/:slug/decline', () => {
  it('declines with the reason and fires form.declined', async () => {
    const f = await signingFixture(twoRoles);
    const res = await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: 'Wrong amount' } });
    expect(res.status).toBe(200);
    expect(await submitterRow(f.submitters[0].id)).toMatchObject({ status: 'declined', decline_reason: 'Wrong amount' });
    const [declined] = await eventsOf(f.account.accountId, 'form.declined');
    expect(declined.data.submitter).toMatchObject({ status: 'declined', completed_at: null });
    expect((await page('GET', `/s/${f.submitters[0].slug}`)).text).toContain('id="declined"');
  });

  it('asks for a reason', async () => {
    const f = await signingFixture(twoRoles);
    const res = await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: '  ' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Give a reason for declining.');
  });
});
