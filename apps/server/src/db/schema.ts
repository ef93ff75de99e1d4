import type { AccountsTables } from './tables/accounts.js';
import type { AdminTables } from './tables/admin.js';
import type { AuthTables } from './tables/auth.js';
import type { CatalogTables } from './tables/catalog.js';
import type { JobsTables } from './tables/jobs.js';
import type { LegalTables } from './tables/legal.js';
import type { LedgerTables } from './tables/ledger.js';
import type { LiveDashboardTables } from './tables/live-dashboard.js';
import type { NotificationsTables } from './tables/notifications.js';
import type { OperatorAlertsTables } from './tables/operator-alerts.js';
import type { PaymentsTables } from './tables/payments.js';
import type { PortHistoryTables } from './tables/port-history.js';
import type { PortsTables } from './tables/ports.js';
import type { RecoveryCodesTables } from './tables/recovery-codes.js';
import type { SupportTables } from './tables/support.js';
import type { TelegramTables } from './tables/telegram.js';
import type { WebhooksTables } from './tables/webhooks.js';

// The database as Kysely sees it: one interface per area in tables/, joined here.
export type DB = AccountsTables & AuthTables
  & CatalogTables & PortsTables & LedgerTables & JobsTables & NotificationsTables
  & LiveDashboardTables & PaymentsTables
  & AdminTables & WebhooksTables & LegalTables & TelegramTables & SupportTables & PortHistoryTables
  & OperatorAlertsTables & RecoveryCodesTables;
