// Recognising D1 constraint failures, so a lost race answers 422 instead of 500.

export function isUniqueViolation(err: unknown): boolean {
  const message = err instanceof Error ? `${err.message} ${(err.cause as Error | undefined)?.message ?? ''}` : String(err);
  return message.includes('UNIQUE constraint failed');
}
