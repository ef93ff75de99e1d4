/**
 * The channel the database triggers announce a change of ports, modems, hosts and users on (migrations
 * 2026_11_30_1000_ports_list_changes and 2026_12_01_1100). The ports' list cache, the catalog's offers and the hosts'
 * protocol (each agent's desired state) listen to it; it is here, in no domain, because ports reads the catalog's
 * face, so the catalog taking it from ports' face would make a cycle.
 */
export const PORTS_CHANNEL = 'cellport_ports';

/** The database's change announcements (its handle's `listen`): all a cache kept by this channel takes from it. */
export interface ChangeAnnouncements {
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
}
