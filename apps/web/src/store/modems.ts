import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ModemView } from './store-types';

/** A status report for one modem, addressed by IMEI (realtime events and rotation results carry it). */
export interface ModemStatusUpdate {
  IMEI: string;
  applyStatus: ModemView['applyStatus'];
  ext_ip?: string | null;
}

// Spec §4, client store: "Modems: load; add or update by _id; update by IMEI (applyStatus and ext_ip, keeping the
// old ext_ip if none is sent); delete by _id."
export interface ModemsState {
  modems: ModemView[];
  load: (modems: ModemView[]) => void;
  addOrUpdate: (modem: ModemView) => void;
  updateByImei: (update: ModemStatusUpdate) => void;
  remove: (id: string) => void;
}

export const modemsStore = createStore<ModemsState>()((set) => ({
  modems: [],
  load: (modems) => set({ modems: [...modems] }),
  addOrUpdate: (modem) =>
    set(({ modems }) =>
      modems.some((m) => m._id === modem._id)
        ? { modems: modems.map((m) => (m._id === modem._id ? { ...m, ...modem } : m)) }
        : { modems: [...modems, modem] },
    ),
  updateByImei: ({ IMEI, applyStatus, ext_ip }) =>
    set(({ modems }) => ({
      modems: modems.map((m) =>
        m.IMEI === IMEI ? { ...m, applyStatus, ext_ip: ext_ip ? ext_ip : m.ext_ip } : m,
      ),
    })),
  remove: (id) => set(({ modems }) => ({ modems: modems.filter((m) => m._id !== id) })),
}));

export const useModemsStore = <T>(selector: (state: ModemsState) => T): T => useStore(modemsStore, selector);
