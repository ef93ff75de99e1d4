import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './connection-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: which failures are the database being away (503), not a bug (500)', () => {
  it('a refused, reset or timed-out connection, and what node-postgres says when one ends or cannot be had', () => {
    expect(isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout', { cause: new Error('x') }))).toBe(true);
  });

  it('PostgreSQL shutting down, starting up, out of connections, or a connection exception (class 08)', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001']) expect(isDatabaseUnavailable(withCode('x', code)), code).toBe(true);
  });

  it('looks through causes', () => {
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('read ECONNRESET', 'ECONNRESET') }))).toBe(true);
  });

  it('but not a constraint, a syntax error, a bug, or nothing', () => {
    expect(isDatabaseUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('syntax error at or near', '42601'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});
