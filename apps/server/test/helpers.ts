import { describe, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import type { App, AppContext } from '../src/context.js';
import { seedPortEnv } from './seed-ports.js';
import { openTestDatabase } from './template-db.js';

export interface TestApp { app: App; ctx: AppContext; config: Config; close(): Promise<void> }

/** A server on its own fresh database (copied from the migrated template), driven with app.inject(). */
export async function buildTestApp(env: Record<string, string> = {}, options: { logStream?: { write(line: string): void } } = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test', WEB_DIST: '/nonexistent', ...await seedPortEnv(), ...env,
  });
  const database = await openTestDatabase(inject('dbTemplate'));
  const { app, ctx } = await buildApp({ config, database, logger: false, logStream: options.logStream });
  await app.ready();
  return {
    app, ctx, config,
    async close() { await app.close(); await database.close(); },
  };
}

/** Reads the session cookie a response set, as a Cookie header value. */
export function cookieFrom(response: { cookies: Array<{ name: string; value: string }> }, name = 'cp_session'): string {
  const c = response.cookies.find((x) => x.name === name);
  if (!c) throw new Error(`no ${name} cookie in the response`);
  return `${name}=${c.value}`;
}

/** True when the tests run on a PostgreSQL server (CI sets TEST_DATABASE_URL); false on PGlite. */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * A describe block that needs a PostgreSQL server (several connections, server processes): on PGlite it is skipped,
 * and its title says so rather than passing silently.
 */
export function describeOnPostgres(subject: string, body: () => void): void {
  describe.skipIf(!onPostgres)(onPostgres ? `${subject} (PostgreSQL)` : `${subject} (SKIPPED: TEST_DATABASE_URL is unset)`, body);
}

/** One test that needs a PostgreSQL server, among tests that run on both: skipped on PGlite with a title that says so. */
export function itOnPostgres(subject: string, body: () => Promise<void>, timeout?: number): void {
  it.skipIf(!onPostgres)(onPostgres ? `${subject} (PostgreSQL)` : `${subject} (SKIPPED: TEST_DATABASE_URL is unset)`, body, timeout);
}
