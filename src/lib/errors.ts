// The one error type of the API; `onError` in app.ts turns it into the JSON envelope.
import type { MessageKey, MessageValues } from '../shared/i18n/translator';

export type ErrorMessage = string | string[];

/** A sentence of the signers' catalogs (src/shared/i18n/catalogs), with the values it is formatted with. */
export type SignerSentence = { key: MessageKey; values?: MessageValues };

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    readonly error: ErrorMessage,
    /** Extra top-level fields merged into the body, e.g. `upgrade_url` or `code`. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(error) ? error.join('; ') : error);
    this.name = 'ApiError';
  }

  /**
   * What a signer reads instead of `error`, one sentence per sentence of it: the signing routes answer
   * in the signer's language (src/routes/signer-refusals.tsx); the tenant API keeps `error`.
   */
  signer?: readonly SignerSentence[];
}

/**
 * A refusal a signer can meet: the tenant API answers `english`; the signing routes answer the catalog's
 * sentence `key` in the signer's language.
 */
export function signerRefusal(english: string, key: MessageKey, values?: MessageValues, status: ApiError['status'] = 422): ApiError {
  return signerProblems([{ english, sentence: { key, values } }], status);
}

/** A signer's problem: the English sentence and the catalog's. */
export type SignerProblem = { english: string; sentence: SignerSentence };

/** Several problems in one refusal (422 lists them), each in English and in the signer's language. */
export function signerProblems(problems: readonly SignerProblem[], status: ApiError['status'] = 422): ApiError {
  const error = new ApiError(status, problems.length === 1 ? problems[0].english : problems.map((p) => p.english));
  error.signer = problems.map((p) => p.sentence);
  return error;
}

/** Short words for the `{error, message, status}` shape of authentication failures (spec › Errors rule 2). */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', { message, status: 401 });
}

export function forbidden(message: ErrorMessage, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(403, message, extra);
}

export function notFound(what: string): ApiError {
  return new ApiError(404, `${what} not found.`);
}

export function unprocessable(message: ErrorMessage, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(422, message, extra);
}

/** Seconds a client waits before retrying a write refused while its account moves to another shard. */
export const ACCOUNT_MOVING_RETRY_AFTER = 5;

/**
 * A write of an account that is moving to another database (POST /api/partner/v1/accounts/{id}/move):
 * refused, never lost; reads keep working, and the write succeeds once the move is done.
 */
export function accountMoving(): ApiError {
  return new ApiError(
    409,
    'This account is being moved to another database; retry shortly.',
    {},
    { 'Retry-After': String(ACCOUNT_MOVING_RETRY_AFTER) },
  );
}
