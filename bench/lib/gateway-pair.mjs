// The agent side and the gateway of bench/gateway.mjs and bench/soak.mjs, each in its own process and bundled by
// esbuild as the agent's build does: bench/lib/gateway-proc.ts (the gateway) and bench/lib/gateway-agent.ts (one
// ModemProxy that listens itself, the direct path, and is also linked to the gateway). Both answer "stats" on stdin
// with one JSON line (memory) and exit when stdin ends.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine, freePort, spawnWithLimit, waitForPort } from './proxy-procs.mjs';

const LIB = fileURLToPath(new URL('./', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts the pair; `dir` holds the bundles, `nodeArgs` go to both processes, `track(child)` is called for each child
 * as soon as it exists (the caller's cleanup kills it); `poolSize` is the agent's (0: every customer over an HTTP/2
 * stream, as before decision 047). Resolves when the gateway serves the customer ports.
 * Returns { agent, gateway, ports: { direct: { http, socks }, gateway: { http, socks } } }.
 */
export async function startGatewayPair({ dir, nodeArgs = [], track, maxConnections, host, gatewayHost, egress, user, pass, poolSize }) {
  const { build } = await import('esbuild');
  for (const name of ['gateway-agent', 'gateway-proc']) {
    await build({ entryPoints: [join(LIB, `${name}.ts`)], outfile: join(dir, `${name}.mjs`), bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning', sourcemap: nodeArgs.length > 0 });
  }
  // Beside the bundle, as apps/agent/build.mjs puts it beside dist/gateway.js: the gateway builds its kernel relay from it.
  copyFileSync(join(ROOT, 'apps/agent/src/relay/kernel-relay.c'), join(dir, 'kernel-relay.c'));
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const id = randomUUID();
  const linkPort = await freePort();
  const gatewayChild = spawnWithLimit(process.execPath, [...nodeArgs, join(dir, 'gateway-proc.mjs'), JSON.stringify({
    id, trustKey: publicKey.export({ format: 'jwk' }).x, linkPort, listenHost: gatewayHost,
    // BENCH_POOL_HELLO=0: a gateway as before the pooled connections' hello (each one an HTTP upgrade), for an A/B.
    offerPoolHello: process.env.BENCH_POOL_HELLO !== '0',
    // BENCH_GATEWAY_RELAY=js: pooled connections relayed in JavaScript, as before decision 050 (the default is the
    // kernel relay, as `npm run gateway` has it), for an A/B; built into `dir`.
    kernelRelay: process.env.BENCH_GATEWAY_RELAY === 'js' ? null : dir,
  })], { cwd: ROOT });
  track(gatewayChild);
  gatewayChild.stderr.pipe(process.stderr);
  await firstLine(gatewayChild, 'gateway');
  const ports = { direct: { http: await freePort(), socks: await freePort() }, gateway: { http: await freePort(), socks: await freePort() } };
  const agentChild = spawnWithLimit(process.execPath, [...nodeArgs, join(dir, 'gateway-agent.mjs'), JSON.stringify({
    listenHost: host, httpPort: ports.direct.http, socksPort: ports.direct.socks, egress, login: user, password: pass,
    maxConnectionsPerPort: maxConnections,
    // The agent relays its tunnels in the kernel as the agent does (BENCH_AGENT_RELAY=js: in JavaScript).
    kernelRelay: process.env.BENCH_AGENT_RELAY === 'js' ? null : dir,
    gateway: { linkUrl: `http://${host}:${linkPort}`, id, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }), httpPort: ports.gateway.http, socksPort: ports.gateway.socks, poolSize },
  })], { cwd: ROOT });
  track(agentChild);
  agentChild.stderr.pipe(process.stderr);
  await firstLine(agentChild, 'agent');
  // The gateway opens the customer ports when the link's ticket is checked.
  await waitForPort(ports.gateway.http, 15_000, gatewayChild, gatewayHost);
  await waitForPort(ports.gateway.socks, 15_000, gatewayChild, gatewayHost);
  return { agent: agentChild, gateway: gatewayChild, ports };
}
