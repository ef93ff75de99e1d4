import { describe, expect, it } from 'vitest';
import { requirePostgresWhenAsked } from './require-postgres.js';

describe('CI requires PostgreSQL', () => {
  it('refuses to start without TEST_DATABASE_URL when CELLPORT_REQUIRE_POSTGRES=1', () => {
    expect(() => requirePostgresWhenAsked({ CELLPORT_REQUIRE_POSTGRES: '1' })).toThrow(/TEST_DATABASE_URL is unset/);
  });

  it('runs with TEST_DATABASE_URL, and on PGlite when PostgreSQL is not required', () => {
    expect(() => requirePostgresWhenAsked({ CELLPORT_REQUIRE_POSTGRES: '1', TEST_DATABASE_URL: 'postgres://x@127.0.0.1/test' })).not.toThrow();
    expect(() => requirePostgresWhenAsked({})).not.toThrow();
  });
});
