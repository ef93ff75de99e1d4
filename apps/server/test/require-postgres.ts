/**
 * CI declares that it runs on PostgreSQL (`.ci/run` sets CELLPORT_REQUIRE_POSTGRES=1). Then a missing
 * TEST_DATABASE_URL is an error before any test runs, so no PostgreSQL-only test is skipped there without notice;
 * locally, without either, the suite runs on PGlite and those tests say "(SKIPPED: …)" in their titles.
 */
export function requirePostgresWhenAsked(env: NodeJS.ProcessEnv = process.env): void {
  if (env.CELLPORT_REQUIRE_POSTGRES === '1' && !env.TEST_DATABASE_URL) {
    throw new Error('CELLPORT_REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is unset: the PostgreSQL-only tests would be skipped. '
      + 'Set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) or unset CELLPORT_REQUIRE_POSTGRES to run on PGlite.');
  }
}
