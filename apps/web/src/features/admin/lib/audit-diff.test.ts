import { describe, expect, it } from 'vitest';
import { auditDiff } from './audit-diff';

describe('auditDiff', () => {
  it('lists only the changed fields, nested ones by dotted path', () => {
    const rows = auditDiff(
      { name: 'Germany', names: { en: 'Germany', ru: 'Германия' }, sort: 1 },
      { name: 'Germany', names: { en: 'Germany', ru: 'ФРГ' }, sort: 2 },
    );
    expect(rows).toEqual([
      { path: 'names.ru', before: 'Германия', after: 'ФРГ', change: 'changed' },
      { path: 'sort', before: '1', after: '2', change: 'changed' },
    ]);
  });

  it('shows a creation as added fields and a deletion as removed ones', () => {
    expect(auditDiff(null, { code: 'DE' })).toEqual([{ path: 'code', before: null, after: 'DE', change: 'added' }]);
    expect(auditDiff({ code: 'DE' }, null)).toEqual([{ path: 'code', before: 'DE', after: null, change: 'removed' }]);
  });

  it('keeps arrays whole and tells null from a missing field', () => {
    expect(auditDiff({ tags: [1, 2] }, { tags: [1, 3] })).toEqual([{ path: 'tags', before: '[1,2]', after: '[1,3]', change: 'changed' }]);
    expect(auditDiff({ regionId: null }, { regionId: 'x' })).toEqual([{ path: 'regionId', before: 'null', after: 'x', change: 'changed' }]);
  });

  it('compares plain values too', () => {
    expect(auditDiff('a', 'b')).toEqual([{ path: '·', before: 'a', after: 'b', change: 'changed' }]);
    expect(auditDiff({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
