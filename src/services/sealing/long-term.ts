// Which PAdES level the sealing job signs at (decisions.md › Signature levels): with time-stamping
// authorities configured (TSA_URLS, a comma list) every seal carries their timestamp; without one,
// development and tests seal at B-B and the audit page says so, and production refuses to seal at all
// rather than hand out documents below the level the service promises.
import { isProduction } from '../../lib/environment';
import { timestampAuthorities, timestamperFor, TimestampFailure, type Timestamper } from '../pdf/timestamp';
import { SealingProblem } from './sealing-status';

export type LongTermEnv = { ENVIRONMENT?: string; TSA_URLS?: string };

/** The timestamper for this environment; undefined (B-B) only outside production. */
export function sealingTimestamper(env: LongTermEnv): Timestamper | undefined {
  const urls = timestampAuthorities(env.TSA_URLS);
  if (urls.length === 0) {
    if (isProduction(env)) {
      throw new SealingProblem(
        'Sealing is paused: the service has no time-stamping authority configured (TSA_URLS), and documents are only sealed with a timestamp. The operator has to set one; sealing then resumes on its own.',
      );
    }
    return undefined;
  }
  const timestamper = timestamperFor(urls);
  // A TSA failure is a reason the tenant may read (the retry machinery tries again with backoff).
  return async (digest) => {
    try {
      return await timestamper(digest);
    } catch (error) {
      if (error instanceof TimestampFailure)
        throw new SealingProblem(`The seal could not be timestamped, so the document was not sealed yet. ${error.message}`);
      throw error;
    }
  };
}
