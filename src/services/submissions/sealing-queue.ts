// The sealing queue's message (SEALING_QUEUE, wrangler.toml › signing-service-sealing): a completed
// submission handed to sealing. Sent when a submission completes (submission-state.ts › requestSealing),
// by the sealing sweep (src/scheduled/sealing-sweep.ts) and by a reseal (sealing/sealing-status.ts ›
// requestReseal); read by src/queues/sealing.ts. It lives with the submissions that produce it, which
// the sealing service already builds on, so neither folder imports the other's back.
export type SealingQueueBody = { type: 'seal'; submissionId: number };
