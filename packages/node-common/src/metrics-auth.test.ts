import { describe, expect, it } from 'vitest';
import { metricsBearer } from './metrics-auth.js';

describe('metrics bearer', () => {
  it('is off without a token, and asks for exactly Bearer <token> with one', () => {
    expect(metricsBearer(undefined)('Bearer anything')).toBe('off');
    expect(metricsBearer('')('Bearer ')).toBe('off');
    const judge = metricsBearer('a-token-of-16-chars');
    expect(judge('Bearer a-token-of-16-chars')).toBe('ok');
    expect(judge(undefined)).toBe('unauthorized');
    expect(judge('Bearer a-token-of-16-charsx')).toBe('unauthorized');
    expect(judge('Basic a-token-of-16-chars')).toBe('unauthorized');
    expect(judge('Bearer ')).toBe('unauthorized');
  });
});
