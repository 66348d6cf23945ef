// The rules over submitters' statuses that the transitions, the signing page, embeds and payments share
// (src/services/submissions/signing-order.ts): one isActive, one witness rule.
import { describe, expect, it } from 'vitest';
import { isActive, witnessed, witnessRoleOf } from '../../src/services/submissions/signing-order';
import { SUBMITTER_STATUSES, type Submitter, type TemplateRole } from '../../src/db/schema/index';

const roles: TemplateRole[] = [
  { name: 'Signer', uuid: 'r-signer' },
  { name: ' WITNESS ', uuid: 'r-witness' },
];
function submitter(roleUuid: string, status: Submitter['status']): Submitter {
  return { id: roleUuid.length, roleUuid, status } as Submitter;
}

describe('isActive', () => {
  it('holds for waiting, sent and opened submitters and for no other status', () => {
    expect(SUBMITTER_STATUSES.filter((status) => isActive({ status }))).toEqual(['waiting', 'sent', 'opened']);
  });
});

describe('witness rule', () => {
  it('finds the role named Witness in any case, spaces around ignored', () => {
    expect(witnessRoleOf(roles)?.uuid).toBe('r-witness');
    expect(witnessRoleOf([{ name: 'Witnesses', uuid: 'x' }])).toBeUndefined();
  });

  it('holds without a Witness role, and with one only once a witness completed', () => {
    const scope = { template: { roles } } as Parameters<typeof witnessed>[0];
    const signer = submitter('r-signer', 'completed');
    expect(witnessed({ template: { ...scope.template, roles: [roles[0]] } } as typeof scope, [signer])).toBe(true);
    expect(witnessed(scope, [signer])).toBe(false);
    expect(witnessed(scope, [signer, submitter('r-witness', 'sent')])).toBe(false);
    expect(witnessed(scope, [signer, submitter('r-witness', 'completed')])).toBe(true);
  });
});
