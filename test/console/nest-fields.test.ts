// The console script's nesting of dotted field names (src/console/client/nest-fields.ts).
import { describe, expect, it } from 'vitest';
import { nestDotted, nestIndexed } from '../../src/console/client/nest-fields';

describe('nestDotted', () => {
  it('puts branding.<key> fields into a branding object beside the plain fields', () => {
    expect(
      nestDotted({ name: 'Acme', 'branding.company_name': 'Acme Co', 'branding.logo_url': null, 'branding.show_branding': false }),
    ).toEqual({
      name: 'Acme',
      branding: { company_name: 'Acme Co', logo_url: null, show_branding: false },
    });
  });

  it('leaves a body without dotted names as it is', () => {
    expect(nestDotted({ url: 'https://example.com', events: ['form.completed'] })).toEqual({
      url: 'https://example.com',
      events: ['form.completed'],
    });
  });

  it('replaces a plain value of the same outer name rather than writing into it', () => {
    expect(nestDotted({ branding: 'x', 'branding.company_name': 'Acme' })).toEqual({ branding: { company_name: 'Acme' } });
  });
});

describe('nestIndexed', () => {
  it('turns list[i][key] names into an array of objects in index order', () => {
    expect(
      nestIndexed({
        template_id: 'tpl_1',
        'submitters[1][email]': 'b@e.test',
        'submitters[0][email]': 'a@e.test',
        'submitters[0][role]': 'Client',
      }),
    ).toEqual({
      template_id: 'tpl_1',
      submitters: [{ email: 'a@e.test', role: 'Client' }, { email: 'b@e.test' }],
    });
  });

  it('leaves out empty values and rows with nothing in them', () => {
    expect(nestIndexed({ 'submitters[0][email]': 'a@e.test', 'submitters[0][phone]': '', 'submitters[1][email]': '' })).toEqual({
      submitters: [{ email: 'a@e.test' }],
    });
  });
});
