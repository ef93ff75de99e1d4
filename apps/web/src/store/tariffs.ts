import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { TariffView } from './store-types';

// Spec §4, client store: "Tariffs: load replaces; add/update merges by _id or appends; delete removes by _id."
export interface TariffsState {
  tariffs: TariffView[];
  load: (tariffs: TariffView[]) => void;
  addOrUpdate: (tariff: Partial<TariffView> & Pick<TariffView, '_id'>) => void;
  remove: (id: string) => void;
}

export const tariffsStore = createStore<TariffsState>()((set) => ({
  tariffs: [],
  load: (tariffs) => set({ tariffs: [...tariffs] }),
  addOrUpdate: (tariff) =>
    set(({ tariffs }) =>
      tariffs.some((t) => t._id === tariff._id)
        ? { tariffs: tariffs.map((t) => (t._id === tariff._id ? { ...t, ...tariff } : t)) }
        // A partial update of an unknown tariff cannot be merged into anything; it is appended as sent.
        : { tariffs: [...tariffs, tariff as TariffView] },
    ),
  remove: (id) => set(({ tariffs }) => ({ tariffs: tariffs.filter((t) => t._id !== id) })),
}));

export const useTariffsStore = <T>(selector: (state: TariffsState) => T): T => useStore(tariffsStore, selector);
