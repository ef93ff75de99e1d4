import { hash, verify } from '@node-rs/argon2';
import { EMAIL_TOKEN_TTL_MS, RESET_TOKEN_TTL_MS } from '@cellport/shared/constants';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { renderLinkEmail } from '../../lib/emails/render.js';
import { renderSecurityEmail } from '../../lib/emails/security.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { isFreshStep, verifyTotp } from '../../lib/totp.js';
import type { AuthRepository, TokenPurpose } from './auth.repository.js';
import type { RecoveryCodesRepository } from './recovery-codes.repository.js';

/**
 * Failed password or code attempts on a login in the window, from one address or from all together, past which
 * every further attempt costs a solved captcha (sign-in-guard.ts).
 */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** At most this many confirmation or reset e-mails per account per hour, so nobody can flood an inbox. */
export const LINK_EMAILS_PER_HOUR = 5;

export interface SignUpInput {
  name: string; company_name: string; login: string; password: string; purpose: string;
  website_wishlist: string; inviteLinkToken: string; language: string; marketing: boolean;
}
export interface CredentialsInput { login: string; password: string; code: string }

export type CredentialOutcome =
  | { kind: 'not_found' }
  | { kind: 'wrong_password' }
  | { kind: 'deactivated'; isVerified: boolean; use2fa: boolean }
  | { kind: 'unverified'; use2fa: boolean }
  | { kind: 'code_required' }
  | { kind: 'wrong_code' }
  | { kind: 'ok'; userId: string; use2fa: boolean; totpStep: number | null; recovery?: RecoveryUse };

/** A recovery code given in place of the TOTP code: the code, and how many unused codes will be left after it. */
export interface RecoveryUse { code: string; left: number }

export type VerifyEmailResult = { ok: true; email: string; language: string } | { ok: false; language: string };

/** Sign-up, e-mail confirmation, credential checks and password reset. Routes translate outcomes to HTTP. */
export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly ctx: Pick<AppContext, 'config' | 'mailer' | 'sessions'>,
    private readonly recoveryCodes: RecoveryCodesRepository,
  ) {}

  async assertEmailFree(email: string): Promise<void> {
    if (await this.repo.emailExists(email)) throw new AppError('EMAIL_TAKEN');
  }

  async signUp(input: SignUpInput): Promise<string> {
    await this.assertEmailFree(input.login);
    const userId = await this.repo.insertUser({
      email: input.login,
      name: input.name,
      company_name: input.company_name,
      password_hash: await hash(input.password),
      purpose: input.purpose,
      website_wishlist: input.website_wishlist,
      language: input.language,
      marketing_consent: input.marketing,
      invite_token: input.inviteLinkToken || null,
    });
    if (!userId) throw new AppError('EMAIL_TAKEN');
    await this.sendLink('confirm', { id: userId, email: input.login, name: input.name }, input.language);
    return input.login;
  }

  /** Sends a fresh confirmation link. Unknown and already verified logins get nothing, and the caller cannot tell. */
  async resendConfirmation(login: string, language: string): Promise<void> {
    const user = await this.repo.findUserByEmail(login);
    if (!user || user.is_verified) return;
    if (await this.tooManyLinks(user.id, 'email_verify')) return;
    await this.sendLink('confirm', user, language);
  }

  async verifyEmail(token: string): Promise<VerifyEmailResult> {
    const tokenHash = hashToken(token);
    const userId = await this.repo.consumeToken(tokenHash, 'email_verify');
    if (!userId) return { ok: false, language: (await this.repo.tokenOwnerLanguage(tokenHash)) ?? 'en' };
    const user = await this.repo.markVerified(userId);
    return { ok: true, email: user.email, language: user.language };
  }

  /** Failed attempts on a login in the window: from this address, and from everywhere. */
  loginFailures(login: string, address: string): Promise<{ fromAddress: number; total: number }> {
    return this.repo.countLoginFailuresSince(login, address, new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS));
  }

  /**
   * Checks login, password, account state and the two-factor code, in that order. It verifies a code but does
   * not use it up (signIn does). Wrong passwords and codes count against the login and the address they came from.
   */
  async checkCredentials({ login, password, code }: CredentialsInput, address: string): Promise<CredentialOutcome> {
    const user = await this.repo.findUserByEmail(login);
    if (!user) return { kind: 'not_found' };
    if (!(await passwordMatches(user.password_hash, password))) {
      await this.repo.addLoginFailure(login, address);
      return { kind: 'wrong_password' };
    }
    const use2fa = user.totp_secret !== null;
    if (!user.is_active) return { kind: 'deactivated', isVerified: user.is_verified, use2fa };
    if (!user.is_verified) return { kind: 'unverified', use2fa };
    if (!user.totp_secret) return { kind: 'ok', userId: user.id, use2fa, totpStep: null };
    if (!code) return { kind: 'code_required' };
    const step = verifyTotp(user.totp_secret, code);
    if (step !== null && isFreshStep(step, user.totp_last_step)) return { kind: 'ok', userId: user.id, use2fa, totpStep: step };
    // In place of the app's code, one of the recovery codes (issue 27, item 5); checked here, used up by signIn.
    if (step === null && (await this.recoveryCodes.isUnused(user.id, code))) {
      const left = (await this.recoveryCodes.countLeft(user.id)) - 1;
      return { kind: 'ok', userId: user.id, use2fa, totpStep: null, recovery: { code, left } };
    }
    await this.repo.addLoginFailure(login, address);
    return { kind: 'wrong_code' };
  }

  /**
   * checkCredentials, then uses up the TOTP step (or the recovery code) so the same code cannot sign in again. A
   * recovery code used tells its owner by e-mail with how many are left.
   */
  async signIn(credentials: CredentialsInput, address: string): Promise<CredentialOutcome> {
    const outcome = await this.checkCredentials(credentials, address);
    if (outcome.kind !== 'ok') return outcome;
    const used = outcome.recovery
      ? await this.recoveryCodes.use(outcome.userId, outcome.recovery.code)
      : outcome.totpStep === null || (await this.repo.consumeTotpStep(outcome.userId, outcome.totpStep)) ? 0 : null;
    if (used === null) {
      await this.repo.addLoginFailure(credentials.login, address);
      return { kind: 'wrong_code' };
    }
    await this.repo.clearLoginFailures(credentials.login, address, new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS));
    if (outcome.recovery) {
      const user = await this.repo.findUserByEmail(credentials.login);
      if (user) await this.ctx.mailer.send(renderSecurityEmail('recoveryCodeUsed', user, { left: String(used) }));
      return { ...outcome, recovery: { code: outcome.recovery.code, left: used } };
    }
    return outcome;
  }

  /** Sends a reset link. Unknown logins get nothing, and the caller cannot tell. */
  async requestPasswordReset(login: string, language: string): Promise<void> {
    const user = await this.repo.findUserByEmail(login);
    if (!user) return;
    if (await this.tooManyLinks(user.id, 'password_reset')) return;
    await this.sendLink('reset', user, language);
  }

  /**
   * Refuses a reset link that can no longer set a password, saying why, so the reset page tells the customer when it
   * opens rather than after they typed a new password twice. 410: the link is gone for good.
   */
  async assertResetLinkLive(token: string): Promise<void> {
    const refusal = await this.deadResetLinkError(hashToken(token), 410);
    if (refusal) throw refusal;
  }

  /** Sets the new password from a single-use reset token and ends every session of the account; returns whose. */
  async resetPassword(token: string, password: string): Promise<string> {
    const userId = await this.repo.consumeToken(hashToken(token), 'password_reset');
    if (!userId) throw (await this.deadResetLinkError(hashToken(token), 400)) ?? new AppError('TOKEN_INVALID');
    const user = await this.repo.setPassword(userId, await hash(password));
    await this.ctx.sessions.revokeAllForUser(userId);
    await this.ctx.mailer.send(renderSecurityEmail('password', user));
    return userId;
  }

  /** Why a reset link cannot set a password (used, expired, never issued), or null while it can. */
  private async deadResetLinkError(tokenHash: string, status: number): Promise<AppError | null> {
    const state = await this.repo.tokenState(tokenHash, 'password_reset');
    if (state === 'used') return new AppError('RESET_LINK_USED', status);
    if (state === 'expired') return new AppError('RESET_LINK_EXPIRED', status);
    if (state === 'unknown') return new AppError('TOKEN_INVALID', status);
    return null;
  }

  private async tooManyLinks(userId: string, purpose: TokenPurpose): Promise<boolean> {
    return (await this.repo.countTokensSince(userId, purpose, new Date(Date.now() - 3_600_000))) >= LINK_EMAILS_PER_HOUR;
  }

  private async sendLink(kind: 'confirm' | 'reset', user: { id: string; email: string; name: string }, language: string) {
    const token = newToken();
    const purpose: TokenPurpose = kind === 'confirm' ? 'email_verify' : 'password_reset';
    const ttl = kind === 'confirm' ? EMAIL_TOKEN_TTL_MS : RESET_TOKEN_TTL_MS;
    await this.repo.insertToken(user.id, purpose, hashToken(token), new Date(Date.now() + ttl));
    const base = this.ctx.config.publicUrl;
    const link = kind === 'confirm' ? `${base}/api/v1/verify-email/${token}` : `${base}/${language}/reset-password/${token}`;
    await this.ctx.mailer.send(renderLinkEmail({ kind, language, to: user.email, name: user.name, link }));
  }
}

async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash is a wrong password, never a 500
  }
}
