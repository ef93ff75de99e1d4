import { describe, expect, it } from 'vitest';
import { rotationTargets, tagCounts } from './port-tags';

describe('port tags on the page', () => {
  it('counts the ports per tag, by name', () => {
    expect(tagCounts([{ tags: ['b', 'a'] }, { tags: ['b'] }, { tags: [] }])).toEqual([{ tag: 'a', count: 1 }, { tag: 'b', count: 2 }]);
  });

  it('rotates dedicated ports only, and skips expired ones', () => {
    const ports = [
      { _id: '1', isShared: false, status: 'active' as const }, { _id: '2', isShared: true, status: 'active' as const },
      { _id: '3', isShared: false, status: 'expired' as const }, { _id: '4', isShared: false, status: 'active' as const },
    ];
    expect(rotationTargets(ports).map((p) => p._id)).toEqual(['1', '4']);
  });
});
