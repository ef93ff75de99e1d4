import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { MESSAGES, EMAIL_PATTERN, credentialsSchema, emailRequestSchema, loginSchema } from './auth.js';

// Issue 26 item 3: `a@` + dots + `@` made the e-mail pattern backtrack quadratically, and the length check before it
// did not stop validation (80,000 characters held the event loop 3 s). No timing here: the inputs below would take
// hours if the old pattern ran on them, and the spy proves the pattern never sees a long login at all.
const hostile = (dots: number) => `a@${'.'.repeat(dots)}@`;

describe('the e-mail pattern and the login schema stay linear', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('the login schema never runs its pattern on input past the length limit', () => {
    const test = vi.spyOn(RegExp.prototype, 'test');
    for (const schema of [loginSchema, credentialsSchema.shape.login, emailRequestSchema.shape.login]) {
      const result = z.safeParse(schema, hostile(4_000_000));
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([MESSAGES.login]);
    }
    const patternCalls = test.mock.contexts.filter((re) => (re as RegExp).source === EMAIL_PATTERN.source);
    expect(patternCalls).toHaveLength(0);
    // Within the limit the pattern does run (the spy sees it), and refuses the same shape.
    expect(z.safeParse(loginSchema, hostile(200)).success).toBe(false);
    expect(test.mock.contexts.filter((re) => (re as RegExp).source === EMAIL_PATTERN.source)).toHaveLength(1);
  });

  it('the pattern itself refuses the hostile shape in one pass (hours with the old pattern)', () => {
    expect(EMAIL_PATTERN.test(hostile(4_000_000))).toBe(false);
    expect(EMAIL_PATTERN.test(`a@b${'.x'.repeat(2_000_000)}!@`)).toBe(false);
  });

  it('accepts and refuses the same addresses as before', () => {
    for (const good of ['ann@example.com', 'a.b+c@mail.example.co', 'x@b.c.de', 'x@.b.cd', 'x@b..cd', 'ünï@exämple.рф']) {
      expect(EMAIL_PATTERN.test(good), good).toBe(true);
    }
    for (const bad of ['x', 'a@b', 'a b@c.de', '@example.com', 'a@.cd', 'a@b.c', 'a@b@c.de', 'a@b.c d', 'a@b.cd@', 'a@bcd.']) {
      expect(EMAIL_PATTERN.test(bad), bad).toBe(false);
    }
  });
});
