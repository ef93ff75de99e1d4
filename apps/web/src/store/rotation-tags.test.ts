import { describe, expect, it } from 'vitest';
import { rotationTagsStore } from './rotation-tags';

describe('rotation tags store (spec §4)', () => {
  it('load replaces the list', () => {
    rotationTagsStore.getState().load([{ value: 5, label: '5 minutes' }, { value: 10, label: '10 minutes' }]);
    rotationTagsStore.getState().load([{ value: 0, label: 'On demand' }]);
    expect(rotationTagsStore.getState().rotationTags).toEqual([{ value: 0, label: 'On demand' }]);
  });
});
