import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helpers.js';
import { ConfigError, loadConfig } from './config.js';
import { JOBS } from './jobs/job-kinds.js';

/**
 * Background work has one home (decision 044): background.ts registers every job kind's handler and lists the
 * subscriptions and timers; no route registrar starts any, and no production code branches on NODE_ENV.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}
const isTestCode = (file: string) => /\.test\.ts$|\.test-helpers\.ts$|test-support\.ts$/.test(file) || file.split('/').includes('testing');
const production = sources(SRC).filter((file) => !isTestCode(file));
const read = (file: string) => readFileSync(join(SRC, file), 'utf8');

describe('background work in one place', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('every declared job kind has a handler once the app is built (role all)', () => {
    expect(t.app.jobs.kinds().sort()).toEqual(Object.values(JOBS).map((kind) => kind.name).sort());
  });

  it('a web instance serves the product and registers no handler; a worker registers them all and serves health only', async () => {
    // The role needs DATABASE_URL in the settings (config.ts); the app itself runs on the test's database handle.
    const web = await buildTestApp({ CELLPORT_ROLE: 'web', DATABASE_URL: 'postgres://settings-only.invalid/x' });
    const worker = await buildTestApp({ CELLPORT_ROLE: 'worker', DATABASE_URL: 'postgres://settings-only.invalid/x' });
    try {
      expect(web.app.jobs.kinds()).toEqual([]);
      expect((await web.app.inject({ method: 'GET', url: '/api/v1/countries' })).statusCode).toBe(200);
      expect(worker.app.jobs.kinds().sort()).toEqual(t.app.jobs.kinds().sort());
      expect((await worker.app.inject({ method: 'GET', url: '/api/v1/countries' })).statusCode).toBe(404);
      expect((await worker.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    } finally {
      await web.close();
      await worker.close();
    }
  });

  it('a web or worker role without DATABASE_URL is refused with what to set', () => {
    for (const role of ['web', 'worker']) {
      expect(() => loadConfig({ CELLPORT_ROLE: role, DATA_DIR: '/tmp/cellport-test', NODE_ENV: 'test' })).toThrow(ConfigError);
      expect(() => loadConfig({ CELLPORT_ROLE: role, DATA_DIR: '/tmp/cellport-test', NODE_ENV: 'test' })).toThrow(/needs DATABASE_URL/);
    }
  });

  it('no route registrar registers a job, a planner or a timer, or starts a socket server or a cache', () => {
    const offenders = production.filter((file) => file.endsWith('.routes.ts'))
      .filter((file) => /\.handle\(JOBS\.|\.plan\(|setInterval\(|\.register\(\)|registerJobs\(\)|startHostProtocol\(|startRealtime\(|\.start\(\)/.test(read(file)));
    expect(offenders).toEqual([]);
  });

  it('no production code outside config.ts reads NODE_ENV (tests choose behaviour through settings and options)', () => {
    const offenders = production.filter((file) => file !== 'config.ts' && /NODE_ENV/.test(read(file)));
    expect(offenders).toEqual([]);
  });
});
