import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { rotationTagsStore } from './rotation-tags';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

describe('rotation tags store (spec §4)', () => {
  it('load replaces the list', () => {
    rotationTagsStore(client, 'en').load([{ value: 5, label: '5 minutes' }, { value: 10, label: '10 minutes' }]);
    rotationTagsStore(client, 'en').load([{ value: 0, label: 'On demand' }]);
    expect(rotationTagsStore(client, 'en').rotationTags).toEqual([{ value: 0, label: 'On demand' }]);
  });
});
