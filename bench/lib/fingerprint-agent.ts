// bench/fingerprint.mjs's agent: one ModemProxy (the real agent code) with one port per fingerprint preset (native
// included), all on one modem, its presets applied by FingerprintHost; run inside the bench's agent namespace. Prints
// {"ready":true,"http":<port>} once listening, then waits; each preset's egress setup is warmed up first, so the first
// measured connection does not pay for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINGERPRINT_PRESET_IDS } from '@cellport/shared/fingerprint-presets';
import { FingerprintHost } from '../../apps/agent/src/fingerprint/fingerprint-host.js';
import { ModemProxy } from '../../apps/agent/src/proxy/modem-proxy.js';
import { createTargetPolicy } from '../../apps/agent/src/proxy/target-policy.js';
import { TrafficMeter } from '../../apps/agent/src/proxy/traffic-meter.js';
import { createLogger } from '../../apps/agent/src/runtime/log.js';

const [egress, tag] = process.argv.slice(2);
const log = createLogger('warn', { component: 'bench-fingerprint' }, (line) => process.stderr.write(line));
// Where the presets' addon and Apple rewrite program are built: removed when the agent stops.
const dataDir = mkdtempSync(join(tmpdir(), 'bench-fp-'));
const host = new FingerprintHost({ log, dataDir, filterPreference: 0xe000 + (parseInt(tag!, 16) % 0x800) * 2 });
await host.cleanUp();
const proxy = new ModemProxy({
  imei: '861234567890077', listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: egress!,
  policy: createTargetPolicy({}), meter: new TrafficMeter(), log, fingerprint: host.forModem('861234567890077', 0),
  limits: { maxConnectionsPerPort: 10_000 },
});
await proxy.start();
const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
proxy.setPorts(FINGERPRINT_PRESET_IDS.map((id) => ({
  id, login: `fp-${id}`, password: 'bench-secret-1', whitelist: [], state: 'active' as const, expiresAt,
  ...(id === 'native' ? {} : { fingerprint: id }),
})));
process.stdout.write(`${JSON.stringify({ ready: true, http: proxy.listeningPorts!.http })}\n`);
const stop = () => void proxy.close().then(() => host.close()).finally(() => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
