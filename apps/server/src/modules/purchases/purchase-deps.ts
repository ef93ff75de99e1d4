import type { JobQueue } from '../../jobs/queue.js';
import type { CouponsService } from '../coupons/index.js';
import type { LedgerService } from '../ledger/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { PortsRepository } from '../ports/index.js';
import type { PurchasesRepository } from './purchases.repository.js';

/** What buying and renewing are built from (handed to PurchasesService by the composition root). */
export interface PurchaseDeps {
  repo: PurchasesRepository;
  /** Reads the bought or renewed ports back in the API's shape. */
  ports: PortsRepository;
  jobs: JobQueue;
  coupons: CouponsService;
  ledger: LedgerService;
  notifications: NotificationsService;
  /** The server secret: signs the rotation links of new ports. */
  secret: string;
  /** Days a port stays reserved after it expires (PORT_GRACE_DAYS). */
  graceDays: number;
}
