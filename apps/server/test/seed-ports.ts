import { createServer, type Server } from 'node:net';
import { SEEDED_MODEM_PORTS } from '../src/db/seed/catalog.js';

// The seeded demo modems listen on fixed ports (21000+, or 41000+) in `npm start`. A test whose agent served the same
// ports would reach a running demo's proxy instead of its own (a CI run got 407 from one). Tests seed them in a range
// no `npm start` takes: 22000–32000, below Linux's ephemeral ports (32768+), away from 21000–21089, 41000+ and the
// usual fixed ports (3000, 7400, 9100, 9464); a block per process (by its id), checked free, the next one if not.
const LOW = 22_000;
const HIGH = 32_000;

/** The first port of a free block of SEEDED_MODEM_PORTS ports for the seeded modems (SEED_MODEM_PORT_BASE). */
export async function freeSeedPortBase(): Promise<number> {
  const blocks = Math.floor((HIGH - LOW) / SEEDED_MODEM_PORTS);
  for (let k = 0; k < blocks; k++) {
    const base = LOW + ((process.pid + k) % blocks) * SEEDED_MODEM_PORTS;
    if (await allFree(base)) return base;
  }
  throw new Error(`no free block of ${SEEDED_MODEM_PORTS} ports between ${LOW} and ${HIGH} for the seeded modems`);
}

/** The setting that puts a test app's seeded modems on a free block. */
export async function seedPortEnv(): Promise<{ SEED_MODEM_PORT_BASE: string }> {
  return { SEED_MODEM_PORT_BASE: String(await freeSeedPortBase()) };
}

/** Every port of the block can be bound on all addresses (so no listener holds it on any of them). */
async function allFree(base: number): Promise<boolean> {
  const bound: Server[] = [];
  try {
    for (let port = base; port < base + SEEDED_MODEM_PORTS; port++) bound.push(await listen(port));
    return true;
  } catch {
    return false;
  } finally {
    await Promise.all(bound.map((s) => new Promise((r) => s.close(r))));
  }
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => resolve(server));
  });
}
