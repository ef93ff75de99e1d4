import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { TestApp } from './helpers.js';
import { json, type Customer } from './fixtures.js';
import { issueHostKey } from '../src/modules/hosts/index.js';

// What the process tests share: a purchase from the demo catalog, the key of the host serving it, and the agent as a
// real process (from source through tsx) speaking the host protocol to a test server.

const root = new URL('../../../', import.meta.url).pathname;

export interface BoughtPort { _id: string; IMEI: string; http_port: number; ext_ip: string; login: string; password: string }

/**
 * `customer` buys `count` dedicated US ports for a month from their balance, from the demo catalog (seedCatalog).
 * `extra` adds to the request (a carrier, say). Returns the ports as the purchase answered them.
 */
export async function buyUsPorts(t: TestApp, customer: Customer, count: number, extra: Record<string, unknown> = {}): Promise<BoughtPort[]> {
  const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = await t.ctx.db.selectFrom('tariffs').select('id').where('country_id', '=', us.id).where('is_shared', '=', false)
    .where('period', '=', 'month').executeTakeFirstOrThrow();
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
    tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: count, ...extra,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  return (bought.json() as { data: { modems: BoughtPort[] } }).data.modems;
}

/** A new key for the host whose modem has `imei` (as an operator issues one in the console). */
export async function hostKeyOfModem(t: TestApp, imei: string): Promise<string> {
  const modem = await t.ctx.db.selectFrom('modems').select('host_id').where('imei', '=', imei).executeTakeFirstOrThrow();
  return issueHostKey(t.ctx.db, modem.host_id);
}

/**
 * The agent as its own process: its ports on `listenHost` (each process test its own loopback address, so they can
 * run at once), loopback targets allowed, logs at warn unless AGENT_TEST_LOG says otherwise. `env` adds or overrides.
 */
export function spawnAgent(o: {
  serverUrl: string; hostKey: string; dataDir: string; listenHost: string; env?: Record<string, string>;
  /** 'pipe' to read its log lines (server-process.ts, watched). */
  stdout?: 'pipe';
}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH, CELLPORT_SERVER_URL: o.serverUrl, CELLPORT_HOST_KEY: o.hostKey, AGENT_DATA_DIR: o.dataDir,
      AGENT_LISTEN_HOST: o.listenHost, AGENT_ALLOW_LOOPBACK: 'true', LOG_LEVEL: process.env.AGENT_TEST_LOG ?? 'warn',
      ...o.env,
    },
    stdio: ['ignore', o.stdout ?? 'inherit', 'inherit'],
  });
}
