import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { LOGIN_FAILURE_LIMIT, type AuthService, type CredentialOutcome } from './auth.service.js';
import type { CaptchaGate } from './captcha-gate.js';

/** Outcomes that were a guess: they keep the captcha use they took. Any other answer gives it back. */
const GUESSES = new Set<CredentialOutcome['kind']>(['not_found', 'wrong_password', 'wrong_code']);

/**
 * One sign-in attempt (a credential check or the form's sign-in) behind the captcha and the failure counters.
 *
 * Issue 26 item 7: ten wrong passwords from anywhere used to refuse the right one too, for everyone, so anybody
 * could lock any account (operators' included) out. Failures now count per login and address. Past the limit from
 * this address, or from all addresses together, every further attempt takes a whole solved captcha (one guess per
 * solve) instead of being refused: a guesser pays for each try, and the owner with the right password and code gets
 * in. With the captcha off there is nothing to step up to, so only the address that made the failures waits.
 */
export async function guardedAttempt(
  request: FastifyRequest, login: string, auth: AuthService, gate: CaptchaGate,
  attempt: () => Promise<CredentialOutcome>,
): Promise<CredentialOutcome> {
  const failures = await auth.loginFailures(login, request.ip);
  const steppedUp = failures.fromAddress >= LOGIN_FAILURE_LIMIT || (gate.enabled && failures.total >= LOGIN_FAILURE_LIMIT);
  if (steppedUp && !gate.enabled) throw new AppError('RATE_LIMITED');
  const ticket = await gate.require(request, steppedUp ? 'all' : 'one');
  const outcome = await attempt();
  if (!GUESSES.has(outcome.kind)) await gate.refund(ticket);
  return outcome;
}
