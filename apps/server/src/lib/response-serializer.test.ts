import { describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { createResponseSerializerCompiler } from './response-serializer.js';

const port = z.object({
  id: z.string(), name: z.string(), expiresAt: z.nullable(z.string()), tags: z.array(z.string()),
  limits: z.optional(z.object({ gb: z.number() })), status: z.enum(['active', 'expired']),
});
const compile = (schema: unknown, check: boolean) =>
  createResponseSerializerCompiler({ check })({ schema, method: 'GET', url: '/t', httpStatus: '200' } as never);

describe('response serializer (issue 31)', () => {
  it('writes only the declared fields, as zod did: a row\'s other columns never reach the answer', () => {
    const row = { id: 'p1', name: 'Proxy 1', expiresAt: null, tags: ['a'], status: 'active', proxy_password_hash: 'secret', user_id: 'u2' };
    for (const check of [false, true]) {
      expect(JSON.parse(compile(port, check)(row))).toEqual({ id: 'p1', name: 'Proxy 1', expiresAt: null, tags: ['a'], status: 'active' });
    }
    expect(JSON.parse(compile(port, false)({ ...row, limits: { gb: 5, hidden: 1 } })).limits).toEqual({ gb: 5 });
  });

  it('in tests, an answer the two would write differently fails the request: zod\'s refusal of a wrong shape is kept there', () => {
    const wrong = { id: 'p1', name: 'Proxy 1', expiresAt: null, tags: [], status: 'stolen' };
    expect(() => compile(port, true)(wrong)).toThrow();
  });

  it('keeps zod for a schema JSON Schema cannot say exactly (a default the fast writer would fill in)', () => {
    const withDefault = z.object({ page: z._default(z.number(), 1) });
    const zod = serializerCompiler({ schema: withDefault, method: 'GET', url: '/t', httpStatus: '200' } as never);
    const outcome = (write: (data: unknown) => string, data: unknown) => {
      try {
        return write(data);
      } catch (err) {
        return `threw ${String(err).slice(0, 40)}`;
      }
    };
    // fast-json-stringify would have written {"page":1} for a missing field; the route answers as zod does.
    for (const data of [{ page: 3 }, {}]) expect(outcome(compile(withDefault, false), data)).toBe(outcome(zod, data));
  });
});
