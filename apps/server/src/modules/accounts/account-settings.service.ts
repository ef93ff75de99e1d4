import type { Me, RecoveryCodes, SessionInfo, TwoFactorEnabled, TwoFactorSetup } from '@cellport/shared/schemas/account';
import { hash, verify } from '@node-rs/argon2';
import QRCode from 'qrcode';
import { AppError } from '../../lib/app-error.js';
import { renderSecurityEmail } from '../../lib/emails/security.js';
import { isFreshStep, newTotpSecret, totpUri, verifyTotp } from '../../lib/totp.js';
import type { Mailer } from '../../integrations/mail/mailer.js';
import type { Sessions } from '../../plugins/session.js';
import type { RecoveryCodesRepository } from '../auth/index.js';
import type { AccountsRepository, UserRow } from './accounts.repository.js';

/** Profile, password, two-factor and sessions of the signed-in user. */
export class AccountSettingsService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly sessions: Sessions,
    private readonly mailer: Pick<Mailer, 'send'>,
    private readonly recoveryCodes: RecoveryCodesRepository,
  ) {}

  async me(userId: string): Promise<Me> {
    const user = await this.user(userId);
    return toMe(user, user.totp_secret ? await this.recoveryCodes.countLeft(userId) : 0);
  }

  async updateProfile(userId: string, profile: { name: string; company_name: string; billing_address: string; vat_number: string }): Promise<Me> {
    await this.repo.updateProfile(userId, profile);
    return this.me(userId);
  }

  /** Changes the password after checking the current one, and ends every other session of the user. */
  async changePassword(userId: string, sessionId: string, current: string, next: string): Promise<void> {
    const user = await this.user(userId);
    const ok = await verify(user.password_hash, current).catch(() => false);
    if (!ok) throw new AppError('WRONG_CURRENT_PASSWORD');
    await this.repo.setPasswordHash(userId, await hash(next));
    await this.sessions.revokeAllForUser(userId, sessionId);
    await this.mailer.send(renderSecurityEmail('password', user));
  }

  /** Starts two-factor setup: a new pending secret, its otpauth:// URL and a QR code of it as SVG. */
  async setupTwoFactor(userId: string): Promise<TwoFactorSetup> {
    const user = await this.user(userId);
    if (user.totp_secret) throw new AppError('TWO_FACTOR_ALREADY_ON');
    const secret = newTotpSecret();
    await this.repo.setPendingTotpSecret(userId, secret);
    const otpauthUrl = totpUri(secret, user.email, 'Cellport');
    const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret, otpauthUrl, qrSvg };
  }

  /**
   * Confirms setup with a code from the app: the pending secret becomes the active one, and ten recovery codes are
   * made (issue 27, item 5). They are in this answer and nowhere else ever again.
   */
  async enableTwoFactor(userId: string, code: string): Promise<TwoFactorEnabled> {
    const user = await this.user(userId);
    if (user.totp_secret) throw new AppError('TWO_FACTOR_ALREADY_ON');
    if (!user.totp_pending_secret) throw new AppError('TWO_FACTOR_NOT_SETUP');
    const step = freshStep(user.totp_pending_secret, code, user.totp_last_step);
    if (!(await this.repo.activateTotp(userId, user.totp_pending_secret, step))) throw new AppError('WRONG_CODE');
    const recoveryCodes = await this.recoveryCodes.replace(userId);
    await this.mailer.send(renderSecurityEmail('twoFactorOn', user));
    return { ...(await this.me(userId)), recoveryCodes };
  }

  /**
   * Turns two-factor off with a code from the app (checked against the active secret and consumed) or, for a lost
   * phone, with a recovery code (used up); the recovery codes go with it.
   */
  async disableTwoFactor(userId: string, code: string): Promise<Me> {
    const user = await this.user(userId);
    if (!user.totp_secret) throw new AppError('TWO_FACTOR_NOT_SETUP');
    const byApp = /^\d{6}$/.test(code);
    if (!byApp && (await this.recoveryCodes.use(userId, code)) === null) throw new AppError('WRONG_CODE');
    const step = byApp ? freshStep(user.totp_secret, code, user.totp_last_step) : user.totp_last_step ?? 0n;
    if (!(await this.repo.deactivateTotp(userId, user.totp_secret, step, !byApp))) throw new AppError('WRONG_CODE');
    await this.recoveryCodes.removeAll(userId);
    await this.mailer.send(renderSecurityEmail('twoFactorOff', user));
    return this.me(userId);
  }

  /**
   * A new set of recovery codes; the old ones stop working. Proven with the current password or a fresh code from
   * the app, so a browser left signed in is not enough to take the codes.
   */
  async regenerateRecoveryCodes(userId: string, proof: { password?: string; code?: string }): Promise<RecoveryCodes> {
    const user = await this.user(userId);
    if (!user.totp_secret) throw new AppError('TWO_FACTOR_NOT_SETUP');
    if (proof.password) {
      if (!(await verify(user.password_hash, proof.password).catch(() => false))) throw new AppError('WRONG_CURRENT_PASSWORD');
    } else if (proof.code) {
      const step = freshStep(user.totp_secret, proof.code, user.totp_last_step);
      if (!(await this.repo.consumeTotpStep(userId, user.totp_secret, step))) throw new AppError('WRONG_CODE');
    } else {
      throw new AppError('VALIDATION');
    }
    const recoveryCodes = await this.recoveryCodes.replace(userId);
    await this.mailer.send(renderSecurityEmail('recoveryCodesNew', user));
    return { recoveryCodes };
  }

  async listSessions(userId: string, currentSessionId: string): Promise<SessionInfo[]> {
    const rows = await this.repo.listSessions(userId);
    return rows.map((s) => ({
      id: s.id,
      ip: s.ip,
      userAgent: s.user_agent,
      createdAt: s.created_at.toISOString(),
      lastSeenAt: s.last_seen_at.toISOString(),
      current: s.id === currentSessionId,
    }));
  }

  /** Ends one of the user's own sessions; another user's session id is answered as not found. */
  async endSession(userId: string, sessionId: string): Promise<void> {
    if (!(await this.repo.ownsSession(userId, sessionId))) throw new AppError('NOT_FOUND');
    await this.sessions.revoke([sessionId]);
  }

  async endOtherSessions(userId: string, currentSessionId: string): Promise<void> {
    await this.sessions.revokeAllForUser(userId, currentSessionId);
  }

  private async user(userId: string): Promise<NonNullable<UserRow>> {
    const user = await this.repo.findUser(userId);
    // The session outlived its user (deleted meanwhile): treat as signed out.
    if (!user) throw new AppError('UNAUTHORIZED');
    return user;
  }
}

function freshStep(secret: string, code: string, lastStep: bigint | null): bigint {
  const step = verifyTotp(secret, code.replace(/\s+/g, ''));
  if (step === null || !isFreshStep(step, lastStep)) throw new AppError('WRONG_CODE');
  return BigInt(step);
}

function toMe(u: NonNullable<UserRow>, recoveryCodesLeft: number): Me {
  return {
    id: u.id, name: u.name, email: u.email, company_name: u.company_name, billing_address: u.billing_address,
    vat_number: u.vat_number, language: u.language,
    use2fa: u.totp_secret !== null, recoveryCodesLeft, isVerified: u.is_verified, role: u.role,
  };
}
