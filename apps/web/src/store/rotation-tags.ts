import type { QueryClient } from '@tanstack/react-query';
import { cachedList } from './cached-list';
import { rotationTagsQuery } from './catalog-queries';
import type { RotationTagView } from './store-types';

// Spec §4, client store: "Rotation tags: load replaces." The tags live in the query cache, one list per language
// (rotationTagsQuery, decision 020).
export interface RotationTagsState {
  rotationTags: RotationTagView[];
  load: (tags: RotationTagView[]) => void;
}

export function rotationTagsStore(client: QueryClient, language: string): RotationTagsState {
  const list = cachedList<RotationTagView>(client, rotationTagsQuery(language).queryKey);
  return {
    get rotationTags() { return list.get(); },
    load: list.set,
  };
}
