import type { QueryClient } from '@tanstack/react-query';
import { modemsQuery } from './catalog-queries';
import type { ModemView } from './store-types';

/** A status report for one modem, addressed by IMEI (realtime events and rotation results carry it). */
export interface ModemStatusUpdate {
  IMEI: string;
  applyStatus: ModemView['applyStatus'];
  ext_ip?: string | null;
}

// Spec §4, client store: "Modems: load; add or update by _id; update by IMEI (applyStatus and ext_ip, keeping the
// old ext_ip if none is sent); delete by _id." The ports live in the query cache (decision 020), one list per page
// language under the ['modems'] prefix (modemsQuery, localizedModemsQuery): `load` replaces the list of
// modemsQuery, and the other actions change every cached list, so each page shows the change.
export interface ModemsState {
  modems: ModemView[];
  load: (modems: ModemView[]) => void;
  addOrUpdate: (modem: ModemView) => void;
  updateByImei: (update: ModemStatusUpdate) => void;
  remove: (id: string) => void;
}

export function modemsStore(client: QueryClient): ModemsState {
  const key = modemsQuery.queryKey;
  const change = (next: (modems: ModemView[]) => ModemView[]) => {
    client.setQueriesData<ModemView[]>({ queryKey: key }, (list) => (list ? next(list) : undefined));
  };
  return {
    get modems() { return client.getQueryData<ModemView[]>(key) ?? []; },
    load: (modems) => { client.setQueryData<ModemView[]>(key, [...modems]); },
    addOrUpdate: (modem) =>
      change((modems) =>
        modems.some((m) => m._id === modem._id)
          ? modems.map((m) => (m._id === modem._id ? { ...m, ...modem } : m))
          : [...modems, modem],
      ),
    updateByImei: ({ IMEI, applyStatus, ext_ip }) =>
      change((modems) => modems.map((m) => (m.IMEI === IMEI ? { ...m, applyStatus, ext_ip: ext_ip ? ext_ip : m.ext_ip } : m))),
    remove: (id) => change((modems) => modems.filter((m) => m._id !== id)),
  };
}
