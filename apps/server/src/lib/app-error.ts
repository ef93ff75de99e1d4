import { ERRORS, type ErrorCode } from '@cellport/shared';

/** An error meant for the person: a code from packages/shared, an HTTP status, and the English message. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string = ERRORS[code],
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = () => new AppError('NOT_FOUND', 404);
export const forbidden = () => new AppError('FORBIDDEN', 403);
