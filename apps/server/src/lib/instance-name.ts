import { hostname } from 'node:os';
import type { Config } from '../config.js';

/**
 * This process among the instances on one database: `<role>@<host>:<pid>` (e.g. `worker@box:4242`). A job row keeps
 * it in `done_by`, so "which kind of process ran it, and which one" is read from the database (decision 044).
 */
export function instanceName(config: Pick<Config, 'CELLPORT_ROLE'>): string {
  return `${config.CELLPORT_ROLE}@${hostname()}:${process.pid}`;
}
