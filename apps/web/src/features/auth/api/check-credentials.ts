import type { Credentials } from '@cellport/shared/schemas/auth';
import { api, ApiError } from '../../../lib/api';
import type { CredentialsAnswer } from '../lib/sign-in-outcome';

/**
 * Checks credentials before the native sign-in post. Resolves with the HTTP status beside the body (spec §7),
 * because 404 and the flags in a failing body decide what the form does; only a network failure throws.
 */
export async function checkCredentials(body: Credentials): Promise<CredentialsAnswer> {
  try {
    return { status: 200, body: await api<CredentialsAnswer['body']>('POST', '/check-credentials', body) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0) throw error;
    // Keep the server's own code only: ApiError invents one (UNAUTHORIZED, INTERNAL) when the body has none.
    const answer = (error.body ?? {}) as NonNullable<CredentialsAnswer['body']>;
    const code = typeof answer.code === 'string' ? answer.code : undefined;
    return { status: error.status, body: { ...answer, error: answer.error ?? error.message, code } };
  }
}
