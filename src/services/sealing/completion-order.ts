// The order signers' revisions are chained in, at aes (signed inside the sealing job) and at qes (each
// signer's revision built on the one before): completion time, then id.
import type { Submitter } from '../../db/schema/index';

/** Completed submitters in completion order (the order their revisions were chained in). */
export function completionOrder(submitters: readonly Submitter[]): Submitter[] {
  return submitters
    .filter((s) => s.status === 'completed' && s.completedAt)
    .sort((a, b) => a.completedAt!.localeCompare(b.completedAt!) || a.id - b.id);
}
