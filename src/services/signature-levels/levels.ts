// The signature levels a tenant can sign at (spec › Signature level configuration; decisions.md ›
// Signature levels): their names, prices and order, and which level a submission signs at.
import { SIGNATURE_LEVELS, type SignatureLevel } from '../../db/schema/accounts';
import { unprocessable } from '../../lib/errors';

export { SIGNATURE_LEVELS, type SignatureLevel };

export type LevelDescription = { key: SignatureLevel; name: string; description: string; costCents: number };

/** Per-signature prices from the spec: ses free, aes $0.20, qes $2.00 (kept in cents, shown in dollars). */
export const LEVEL_CATALOG: readonly LevelDescription[] = [
  {
    key: 'ses',
    name: 'Simple',
    description:
      'Simple electronic signature: the signer is identified by their link (and an email code when the template asks); the platform seals the document.',
    costCents: 0,
  },
  {
    key: 'aes',
    name: 'Advanced',
    description:
      'Advanced electronic signature (eIDAS art. 26): each signer signs with a certificate the account’s CA issues to their verified name and email, then the platform seal.',
    costCents: 20,
  },
  {
    key: 'qes',
    name: 'Qualified',
    description:
      'Qualified electronic signature (eIDAS art. 25(2)): each signer authorizes a signature by a qualified trust service provider through the Cloud Signature Consortium API v2.',
    costCents: 200,
  },
];

export function costCentsOf(level: SignatureLevel): number {
  return LEVEL_CATALOG.find((l) => l.key === level)!.costCents;
}

export const centsToDollars = (cents: number) => Math.round(cents) / 100;

export function levelRank(level: SignatureLevel): number {
  return SIGNATURE_LEVELS.indexOf(level);
}

/**
 * The sentence refusing a preference above the account's level, or null when it is within it
 * (decisions.md › Signature levels: "up to the account's configured one").
 */
export function levelAboveAccountProblem(
  where: string,
  requested: SignatureLevel | undefined,
  accountLevel: SignatureLevel,
): string | null {
  if (requested === undefined || levelRank(requested) <= levelRank(accountLevel)) return null;
  return `${where}signature_level ${requested} is above the account's signature level ${accountLevel}; raise it with PUT /api/settings/signature_level or ask for ${accountLevel} or lower.`;
}

/** Throws the 422 for a template's or submission's `preferences.signature_level` above the account's. */
export function assertLevelWithinAccount(
  preferences: { signature_level?: SignatureLevel | null } | undefined,
  accountLevel: SignatureLevel,
  where = 'preferences.',
): void {
  const problem = levelAboveAccountProblem(where, preferences?.signature_level ?? undefined, accountLevel);
  if (problem) throw unprocessable(problem);
}

/** A submission's level, fixed at creation: its own preference, else the template's, else the account's. */
export function effectiveSignatureLevel(
  submissionLevel: SignatureLevel | undefined,
  templateLevel: unknown,
  accountLevel: SignatureLevel,
): SignatureLevel {
  if (submissionLevel) return submissionLevel;
  if (typeof templateLevel === 'string' && (SIGNATURE_LEVELS as readonly string[]).includes(templateLevel))
    return templateLevel as SignatureLevel;
  return accountLevel;
}
