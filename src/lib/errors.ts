// The one error type of the API; `onError` in app.ts turns it into the JSON envelope.

export type ErrorMessage = string | string[];

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
