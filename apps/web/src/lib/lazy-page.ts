import { CHUNK_LOAD_TIMEOUT_MS } from '@cellport/shared/constants';
import { lazy, type ComponentType } from 'react';

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** A lazily loaded page; a chunk that has not arrived after 120 s fails with ChunkLoadError (spec §8). */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkLoadError('Loading a part of the app timed out')), CHUNK_LOAD_TIMEOUT_MS);
    });
    return Promise.race([load(), timeout]).finally(() => clearTimeout(timer));
  });
}
