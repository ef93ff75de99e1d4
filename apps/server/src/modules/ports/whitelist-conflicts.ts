import { parseIpRange, rangesOverlap, type IpRange } from '@cellport/shared/schemas/whitelist-ranges';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { PortsRepository } from './ports.repository.js';

// On a shared modem the agent tells customers apart by login, or, without one, by the client's whitelisted address:
// two ports whose whitelists share an address would both claim its connections, and the agent gives them to the
// first (issue 26, item 5). So no address is on the whitelists of two ports of one modem.

type Log = { warn(obj: unknown, msg: string): void };

const parsed = (entries: readonly string[]) =>
  entries.map((entry) => ({ entry, range: parseIpRange(entry) })).filter((e): e is { entry: string; range: IpRange } => e.range !== null);

/**
 * Refuses (409 WHITELIST_OVERLAP, naming the customer's own entry) a whitelist that shares an address with another
 * port's on the same modem. Runs in the transaction that saves it, with the modem's row locked, so two customers
 * saving at once are checked one after the other.
 */
export async function assertNoWhitelistOverlap(
  repo: PortsRepository, tx: Tx, portId: string, modemId: string, entries: readonly string[],
): Promise<void> {
  if (!entries.length) return;
  await repo.lockModem(tx, modemId);
  const taken = (await repo.otherWhitelists(tx, portId, modemId)).flatMap((whitelist) => parsed(whitelist));
  for (const { entry, range } of parsed(entries)) {
    if (taken.some((t) => rangesOverlap(range, t.range))) {
      throw new AppError('WHITELIST_OVERLAP', 409, `${entry} overlaps the whitelist of another port on the same modem. List a narrower address, or connect with the login and password.`, { entry });
    }
  }
}

export interface WhitelistConflict { modemId: string; portIds: [string, string]; entries: [string, string] }

/**
 * Overlaps already stored (from before the check, or a port moved onto a modem by a replacement): each pair once.
 * They need a person: the server reports them at start, and the customers' next whitelist change must resolve them.
 */
export async function findWhitelistConflicts(repo: PortsRepository): Promise<WhitelistConflict[]> {
  const rows = await repo.storedWhitelists();
  const conflicts: WhitelistConflict[] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length && rows[j]!.modem_id === rows[i]!.modem_id; j++) {
      const a = rows[i]!, b = rows[j]!;
      const pair = parsed(a.whitelist).flatMap((x) => parsed(b.whitelist).filter((y) => rangesOverlap(x.range, y.range)).map((y) => [x.entry, y.entry] as [string, string]));
      if (pair[0]) conflicts.push({ modemId: a.modem_id, portIds: [a.id, b.id], entries: pair[0] });
    }
  }
  return conflicts;
}

/** One warning per conflict, for the operator; never fails the start. */
export async function reportWhitelistConflicts(repo: PortsRepository, log: Log): Promise<void> {
  try {
    for (const conflict of await findWhitelistConflicts(repo)) {
      log.warn(conflict, 'two ports of one modem whitelist the same addresses: the agent gives their connections to the first; ask the customers to narrow them');
    }
  } catch (err) {
    log.warn({ err }, 'whitelist conflicts could not be checked');
  }
}
