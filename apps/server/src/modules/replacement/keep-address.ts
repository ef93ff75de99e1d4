import type { Tx } from '../../db/database.js';

/** The notification's `cause` when the address stayed: its text says nothing needs changing (`port_replaced_address_kept`). */
export const ADDRESS_KEPT = 'address_kept';

/**
 * A dedicated port that moves to another modem of the same host keeps its address (issue 28, item 10; decision 036):
 * the two modems swap their listening ports, so the new modem serves on the host and ports the customer's clients
 * already use, and the old one (in maintenance, with no customer) takes the new one's. The host's set of ports stays
 * the same, so a gateway in front of the host maps the same numbers to it; the agent gets both modems' new ports in
 * its next desired state (the modems trigger, decision 016) and moves the listener without a port changing hands.
 *
 * Three statements: PostgreSQL checks `unique (host_id, http_port)` row by row, so a one-statement swap would
 * collide on the first row. The old modem parks on the negated numbers (never a real port) for the middle step.
 * Both rows are locked by the caller's move (the new modem taken FOR UPDATE, the old one updated before this).
 */
export async function swapListeningPorts(tx: Tx, oldModemId: string, newModemId: string): Promise<void> {
  const rows = await tx.selectFrom('modems').select(['id', 'host_id', 'http_port', 'socks_port'])
    .where('id', 'in', [oldModemId, newModemId]).forUpdate().execute();
  const old = rows.find((r) => r.id === oldModemId);
  const next = rows.find((r) => r.id === newModemId);
  if (!old || !next || old.host_id !== next.host_id) throw new Error('swapListeningPorts: both modems must be on one host');
  await tx.updateTable('modems').set({ http_port: -old.http_port, socks_port: -old.socks_port }).where('id', '=', old.id).execute();
  await tx.updateTable('modems').set({ http_port: old.http_port, socks_port: old.socks_port }).where('id', '=', next.id).execute();
  await tx.updateTable('modems').set({ http_port: next.http_port, socks_port: next.socks_port }).where('id', '=', old.id).execute();
}
