import type { QueryClient } from '@tanstack/react-query';
import { cachedList } from './cached-list';
import { tariffsQuery } from './catalog-queries';
import type { TariffView } from './store-types';

// Spec §4, client store: "Tariffs: load replaces; add/update merges by _id or appends; delete removes by _id."
// The list lives in the query cache (tariffsQuery, decision 020); these actions edit it there.
export interface TariffsState {
  tariffs: TariffView[];
  load: (tariffs: TariffView[]) => void;
  addOrUpdate: (tariff: Partial<TariffView> & Pick<TariffView, '_id'>) => void;
  remove: (id: string) => void;
}

export function tariffsStore(client: QueryClient): TariffsState {
  const list = cachedList<TariffView>(client, tariffsQuery.queryKey);
  return {
    get tariffs() { return list.get(); },
    load: list.set,
    addOrUpdate: (tariff) =>
      list.change((tariffs) =>
        tariffs.some((t) => t._id === tariff._id)
          ? tariffs.map((t) => (t._id === tariff._id ? { ...t, ...tariff } : t))
          // A partial update of an unknown tariff cannot be merged into anything; it is appended as sent.
          : [...tariffs, tariff as TariffView],
      ),
    remove: (id) => list.change((tariffs) => tariffs.filter((t) => t._id !== id)),
  };
}
