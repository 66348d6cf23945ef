// The console script's nesting of dotted field names (src/console/client/nest-fields.ts).
import { describe, expect, it } from 'vitest';
import { nestDotted } from '../../src/console/client/nest-fields';

describe('nestDotted', () => {
  it('puts branding.<key> fields into a branding object beside the plain fields', () => {
    expect(nestDotted({ name: 'Acme', 'branding.company_name': 'Acme Co', 'branding.logo_url': null, 'branding.show_branding': false })).toEqual({
      name: 'Acme',
      branding: { company_name: 'Acme Co', logo_url: null, show_branding: false },
    });
  });

  it('leaves a body without dotted names as it is', () => {
    expect(nestDotted({ url: 'https://example.com', events: ['form.completed'] })).toEqual({ url: 'https://example.com', events: ['form.completed'] });
  });

  it('replaces a plain value of the same outer name rather than writing into it', () => {
    expect(nestDotted({ branding: 'x', 'branding.company_name': 'Acme' })).toEqual({ branding: { company_name: 'Acme' } });
  });
});
