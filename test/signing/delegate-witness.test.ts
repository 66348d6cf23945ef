// Rule 1 (POST /s/:slug/delegate) and rule 2 (POST /s/:slug/invite_witness).
import { describe, expect, it } from 'vitest';
import { eventsOf, messagesTo, page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';

describe('POST /s/:slug/delegate', () => {
  it('hands the form to the new person with a fresh link and invitation; the old link stops working', async () => {
    const f = await signingFixture({ submitters: [{ email: 'boss@example.com', name: 'Boss', values: { 'Full name': 'Preset' } }] });
    const old = f.submitters[0];
    await page('GET', `/s/${old.slug}`);
    const res = await page('POST', `/s/${old.slug}/delegate`, { body: { email: 'deputy@example.com', name: 'Deputy' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'sent', delegated_to: { email: 'deputy@example.com', name: 'Deputy' } });
    const row = await submitterRow(old.id);
    expect(row).toMatchObject({ email: 'deputy@example.com', name: 'Deputy', status: 'sent', opened_at: null });
    expect(row.slug).not.toBe(old.slug);
    expect(JSON.parse(row.values)).toEqual({ [f.field('Full name')]: 'Preset' });
    expect((await page('GET', `/s/${old.slug}`)).status).toBe(404);
    const [invitation] = await messagesTo('deputy@example.com', 'invitation');
    expect(invitation.text).toContain(`/s/${row.slug}`);
    const [delegated] = await eventsOf(f.account.accountId, 'form.delegated');
    expect(delegated.data).toMatchObject({
      submitter: { email: 'boss@example.com' },
      delegated_to: { email: 'deputy@example.com', name: 'Deputy' },
    });
  });

  it('is refused once the signer completed (rule 1)', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    const slug = f.submitters[0].slug;
    await acceptDisclosure(slug);
    await page('POST', `/s/${slug}/submit`, { body: { values: { [f.field('Name')]: 'x' } } });
    const res = await page('POST', `/s/${slug}/delegate`, { body: { email: 'other@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('This form is already finished, so it can no longer be delegated.');
  });

  it('refuses a malformed email with a sentence and a missing one with 400', async () => {
    const f = await signingFixture();
    expect((await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: 'nope' } })).json.error).toBe(
      'Enter a valid email address.',
    );
    expect((await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: {} })).status).toBe(400);
  });
});

describe('POST /s/:slug/invite_witness', () => {
  const witnessTemplate = {
    roles: ['Signer', 'Witness'],
    fields: [
      { name: 'Signer name', type: 'text', role: 'Signer' },
      { name: 'Witness signature', type: 'signature', role: 'Witness' },
    ],
    // The create API needs a submitter for every role with fields: the witness is a placeholder the signer replaces.
    submitters: [
      { email: 'signer@example.com', name: 'Sig', role: 'Signer' },
      { email: 'placeholder-witness@example.com', name: 'To be named', role: 'Witness' },
    ],
  };

  it('invites the witness after the signer completed; the submission completes only after the witness', async () => {
    const f = await signingFixture(witnessTemplate);
    const signer = f.submitters[0];
    await acceptDisclosure(signer.slug);
    await page('POST', `/s/${signer.slug}/submit`, { body: { values: { [f.field('Signer name')]: 'Sig' } } });
    const res = await page('POST', `/s/${signer.slug}/invite_witness`, { body: { email: 'witness@example.com', name: 'Wit' } });
    expect(res.status).toBe(200);
    expect(res.json.witness).toEqual({ email: 'witness@example.com', name: 'Wit', status: 'sent' });
    const [invitation] = await messagesTo('witness@example.com', 'invitation');
    const witnessSlug = /\/s\/([0-9A-Za-z]+)/.exec(invitation.text)![1];
    expect(await eventsOf(f.account.accountId, 'submission.completed')).toHaveLength(0);
    // The placeholder's link no longer works.
    expect((await page('GET', `/s/${f.submitters[1].slug}`)).status).toBe(404);
    await acceptDisclosure(witnessSlug);
    const done = await page('POST', `/s/${witnessSlug}/submit`, { body: { values: { [f.field('Witness signature')]: 'Wit' } } });
    expect(done.json.submission_status).toBe('completed');
  });

  it('requires the signer to have completed first', async () => {
    const f = await signingFixture(witnessTemplate);
    const res = await page('POST', `/s/${f.submitters[0].slug}/invite_witness`, { body: { email: 'witness@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Complete your form before inviting a witness.');
  });

  it("requires the witness's email to differ from the signer's", async () => {
    const f = await signingFixture(witnessTemplate);
    await acceptDisclosure(f.submitters[0].slug);
    await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Signer name')]: 'Sig' } } });
    const res = await page('POST', `/s/${f.submitters[0].slug}/invite_witness`, { body: { email: 'SIGNER@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe("The witness's email must differ from yours.");
  });

  it('requires a Witness role in the template', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    await acceptDisclosure(f.submitters[0].slug);
    await page('POST', `/s/${f.submitters[0].slug}/submit`, { body: { values: { [f.field('Name')]: 'x' } } });
    const res = await page('POST', `/s/${f.submitters[0].slug}/invite_witness`, { body: { email: 'w@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('This document has no Witness role, so a witness cannot be invited.');
  });
});
