import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { RotationTagView } from './store-types';

// Spec §4, client store: "Rotation tags: load replaces."
export interface RotationTagsState {
  rotationTags: RotationTagView[];
  load: (tags: RotationTagView[]) => void;
}

export const rotationTagsStore = createStore<RotationTagsState>()((set) => ({
  rotationTags: [],
  load: (tags) => set({ rotationTags: [...tags] }),
}));

export const useRotationTagsStore = <T>(selector: (state: RotationTagsState) => T): T =>
  useStore(rotationTagsStore, selector);
