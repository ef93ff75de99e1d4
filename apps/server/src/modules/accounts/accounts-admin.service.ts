import { randomUUID } from 'node:crypto';
import type {
  AdminPort, BalanceAdjustmentRequest, BalanceAdjustmentResponse, CustomerDetailResponse, CustomerSummary, CustomersResponse,
} from '@cellport/shared/schemas/admin/customers';
import type { AdminPayment } from '@cellport/shared/schemas/admin/payments';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Paging } from '../../lib/console-http.js';
import type { Sessions } from '../../plugins/session.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { AuthService } from '../auth/index.js';
import { toLedgerEntry, type LedgerBooking } from '../ledger/index.js';
import type { LegalService } from '../legal/index.js';
import type { AccountListing, CustomersRepository } from './customers.repository.js';


/**
 * What the console's customers take from other domains, by what they do: the composition root hands in the parts
 * (the ports and payments domains' console lists, the ledger), so this domain names none of their files.
 */
export interface AccountsAdminDeps {
  repo: CustomersRepository;
  audit: AuditLog;
  sessions: Pick<Sessions, 'revokeAllForUser'>;
  /** The customer's ports as the console lists them, newest first. */
  ports: { ofCustomer(userId: string): Promise<AdminPort[]> };
  /** The customer's payments as the console lists them, newest first. */
  payments: { forUser(userId: string): Promise<AdminPayment[]> };
  /** The only code that changes balances (credit and debit book an entry and the balance in the caller's transaction). */
  ledger: {
    balance(userId: string, coin: 'btc' | 'usdt', tx?: Tx): Promise<bigint>;
    credit(tx: Tx, entry: LedgerBooking): Promise<boolean>;
    debit(tx: Tx, entry: LedgerBooking): Promise<void>;
  };
  /** Sends the confirmation e-mail again on the operator's request. */
  auth: Pick<AuthService, 'resendConfirmation'>;
  /** The Terms of Service and Refund Policy versions the customer accepted at sign-up. */
  legal: Pick<LegalService, 'acceptancesOf'>;
}

/** Customers in the console: search, the full picture of one, and the operator's actions on an account. */
export class AccountsAdminService {
  private readonly repo: CustomersRepository;
  private readonly audit: AuditLog;

  constructor(private readonly deps: AccountsAdminDeps) {
    this.repo = deps.repo;
    this.audit = deps.audit;
  }

  async search(q: string | undefined, page: Paging): Promise<CustomersResponse> {
    return { ...await this.repo.search(q, page), page: page.page, pageSize: page.pageSize };
  }

  private async mustFind(userId: string): Promise<CustomerSummary> {
    const c = await this.repo.summary(userId);
    if (!c) throw new AppError('CUSTOMER_NOT_FOUND');
    return c;
  }

  async detail(userId: string): Promise<CustomerDetailResponse> {
    const customer = await this.mustFind(userId);
    const [profile, ports, payments, ledger, sessions, notifications, legalAcceptances] = await Promise.all([
      this.repo.profile(userId), this.deps.ports.ofCustomer(userId), this.deps.payments.forUser(userId), this.repo.ledger(userId),
      this.repo.sessions(userId), this.repo.notifications(userId), this.deps.legal.acceptancesOf(userId),
    ]);
    return {
      customer: {
        ...customer, language: profile?.language ?? 'en', purpose: profile?.purpose ?? '',
        websiteWishlist: profile?.website_wishlist ?? '', marketingConsent: profile?.marketing_consent ?? false,
      },
      legalAcceptances,
      ports,
      payments,
      ledger: ledger.map(toLedgerEntry),
      sessions: sessions.map((s) => ({
        id: s.id.slice(0, 12), ip: s.ip, userAgent: s.user_agent, createdAt: s.created_at.toISOString(),
        lastSeenAt: s.last_seen_at.toISOString(), expiresAt: s.expires_at.toISOString(),
      })),
      notifications: notifications.map((n) => ({ id: n.id, type: n.type, text: n.text, unread: n.unread, createdAt: n.created_at.toISOString() })),
    };
  }

  /**
   * Deactivation: the flag and the audit entry commit together, then every session ends at once (the revocation is
   * published on the bus, so every instance drops its cached sessions; a cache miss re-reads is_active anyway).
   */
  async setActive(actor: AuditActor | { adminId: null; ip: string }, userId: string, active: boolean, reason?: string): Promise<CustomerSummary> {
    if (!active && userId === actor.adminId) throw new AppError('ADMIN_SELF_DEMOTE');
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lockAccount(tx, userId);
      if (!before) throw new AppError('CUSTOMER_NOT_FOUND');
      await this.repo.setActive(tx, userId, active);
      if (!active) await this.repo.deleteSessions(tx, userId);
      await this.audit.record(tx, actor, {
        action: active ? 'customer.reactivate' : 'customer.deactivate', targetType: 'user', targetId: userId,
        before: { email: before.email, isActive: before.is_active }, after: { email: before.email, isActive: active, reason: reason ?? null },
      });
    });
    if (!active) await this.deps.sessions.revokeAllForUser(userId);
    return this.mustFind(userId);
  }

  /** The account with this e-mail (any case), for the operator CLI, which names accounts by e-mail. */
  findByEmail(email: string): Promise<{ id: string; email: string } | undefined> {
    return this.repo.findByEmail(email);
  }

  /** How many sessions the account has open. */
  sessionCount(userId: string): Promise<number> {
    return this.repo.sessionCount(userId);
  }

  /** Every account, admins first, then by e-mail (the CLI's `list`). */
  everyAccount(): Promise<AccountListing[]> {
    return this.repo.everyAccount();
  }

  /** A signed ledger entry with its own unique reference; a debit is a conditional update that cannot go below zero. */
  async adjustBalance(actor: AuditActor, userId: string, req: BalanceAdjustmentRequest): Promise<BalanceAdjustmentResponse> {
    const amount = BigInt(req.amount);
    const reference = `admin-adjustment:${randomUUID()}`;
    const { ledger } = this.deps;
    return this.repo.transaction(async (tx) => {
      const user = await this.repo.findAccount(userId, tx);
      if (!user) throw new AppError('CUSTOMER_NOT_FOUND');
      const before = await ledger.balance(userId, req.coin, tx);
      const entry = { userId, coin: req.coin, kind: 'admin-adjustment', reference };
      if (amount > 0n) {
        await ledger.credit(tx, { ...entry, amount });
      } else {
        try {
          await ledger.debit(tx, { ...entry, amount: -amount });
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') {
            throw new AppError('BALANCE_BELOW_ZERO', 409, undefined, { balance: before.toString() });
          }
          throw error;
        }
      }
      const row = await this.repo.ledgerEntry(tx, reference);
      const after = await ledger.balance(userId, req.coin, tx);
      await this.audit.record(tx, actor, {
        action: 'customer.balance-adjust', targetType: 'user', targetId: userId,
        before: { email: user.email, coin: req.coin, balance: before },
        after: { email: user.email, coin: req.coin, balance: after, amount, reason: req.reason, reference },
      });
      return { entry: toLedgerEntry(row), balance: after.toString() };
    });
  }

  async resetTwoFactor(actor: AuditActor, userId: string, reason?: string): Promise<CustomerSummary> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lockAccount(tx, userId);
      if (!before) throw new AppError('CUSTOMER_NOT_FOUND');
      await this.repo.clearTwoFactor(tx, userId);
      await this.audit.record(tx, actor, {
        action: 'customer.reset-2fa', targetType: 'user', targetId: userId,
        before: { email: before.email, uses2fa: before.totp_secret !== null },
        after: { email: before.email, uses2fa: false, reason: reason ?? null },
      });
    });
    return this.mustFind(userId);
  }

  /**
   * A fresh confirmation link through the sign-up flow's own sender (its per-hour limit applies; a verified account
   * gets nothing). The audit entry commits after the mail is queued: the mail outbox is the change it records.
   */
  async resendConfirmation(actor: AuditActor, userId: string): Promise<void> {
    const user = await this.repo.findAccount(userId);
    if (!user) throw new AppError('CUSTOMER_NOT_FOUND');
    await this.deps.auth.resendConfirmation(user.email, user.language);
    await this.repo.transaction((tx) => this.audit.record(tx, actor, {
      action: 'customer.resend-confirmation', targetType: 'user', targetId: userId,
      before: { email: user.email, isVerified: user.is_verified }, after: { email: user.email, sent: !user.is_verified },
    }));
  }
}
