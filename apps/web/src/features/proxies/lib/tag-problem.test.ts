import { describe, expect, it } from 'vitest';
import { tagProblem } from './tag-problem';

describe('a tag added on the page', () => {
  it('accepts a tag as the server keeps it, and says why it refuses one', () => {
    expect(tagProblem('  Scraper-EU ', [])).toEqual({ problem: null, tag: 'scraper-eu' });
    expect(tagProblem('парсер', [])).toEqual({ problem: null, tag: 'парсер' });
    expect(tagProblem('has space', []).problem).toBe('portTag');
    expect(tagProblem('', []).problem).toBe('portTag');
    expect(tagProblem('x'.repeat(33), []).problem).toBe('portTag');
    expect(tagProblem('SCRAPER-eu', ['scraper-eu']).problem).toBe('duplicate');
    expect(tagProblem('eleventh', Array.from({ length: 10 }, (_, i) => `t${i}`)).problem).toBe('portTags');
  });
});
