// Signing-page uploads no form keeps: a file a signer uploaded but replaced, cleared, or never submitted
// (the submitter declined or expired) is deleted from R2 and D1 once older than 24 hours, so abandoned
// uploads do not hold an account's storage. An upload its submitter's completed form names is marked
// kept and never looked at again; one a form still being filled names waits for that form's outcome.
import { deleteSigningUploads, findAbandonedUploads, markKeptUploads } from '../db/queries/storage';
import type { ShardScope } from '../db/shards';

/** How long an upload may wait for the form that names it. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;
/** Rows per query: the delete binds one parameter per id, and D1 allows 100. */
export const CLEANUP_BATCH = 50;
/** Batches per run: 500 uploads a minute; a backlog is worked off over the following minutes. */
export const CLEANUP_BATCHES_PER_RUN = 10;

export type UploadCleanupResult = { deleted: number; kept: number };

export async function deleteAbandonedUploads({ db, env }: ShardScope, now: number): Promise<UploadCleanupResult> {
  const before = new Date(now - UPLOAD_GRACE_MS).toISOString();
  const kept = await markKeptUploads(db, before, new Date(now).toISOString(), CLEANUP_BATCH * CLEANUP_BATCHES_PER_RUN);
  let deleted = 0;
  for (let batch = 0; batch < CLEANUP_BATCHES_PER_RUN; batch += 1) {
    const doomed = await findAbandonedUploads(db, before, CLEANUP_BATCH);
    if (doomed.length === 0) break;
    // Files first: if deleting the rows fails, the next run finds them again and R2's delete of a
    // missing key is a no-op; the other order could leave files no row counts or finds.
    await env.FILES.delete(doomed.map((u) => u.r2Key));
    await deleteSigningUploads(
      db,
      doomed.map((u) => u.id),
    );
    deleted += doomed.length;
    if (doomed.length < CLEANUP_BATCH) break;
  }
  return { deleted, kept };
}
