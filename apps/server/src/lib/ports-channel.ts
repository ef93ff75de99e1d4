/**
 * The channel the database triggers announce a change of ports and modems on (migration
 * 2026_11_30_1000_ports_list_changes). The ports' list cache and the catalog's offers both listen to it; it is here,
 * not in either domain, because ports reads the catalog's face, so the catalog taking it from ports' face would
 * make a cycle.
 */
export const PORTS_CHANNEL = 'cellport_ports';

/** The database's change announcements (its handle's `listen`): all a cache kept by this channel takes from it. */
export interface ChangeAnnouncements {
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
}
