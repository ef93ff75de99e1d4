import { ERRORS, type ErrorCode } from '@cellport/shared';
import { ERROR_STATUS } from './error-status.js';

/**
 * An error meant for the person: a code from packages/shared, its HTTP status (bound to the code in error-status.ts),
 * and the English message. `status` may still be passed during the move to the table (code written before it, and
 * the few codes whose status a caller decides, like a reset link's 410 or 400); error-status.test.ts checks every
 * literal one equals the table's.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    status?: number,
    message: string = ERRORS[code],
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status ?? ERROR_STATUS[code] ?? 400;
  }
}

export const notFound = () => new AppError('NOT_FOUND');
export const forbidden = () => new AppError('FORBIDDEN');
