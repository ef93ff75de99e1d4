// The image's HEALTHCHECK, in Node because the image has no curl. It checks the process the container runs (PID 1's
// command line; the server when that cannot be read, as in a chroot check):
//   server   GET /healthz on this container's PORT answers 200 {"status":"ok"} within 3 s.
//   gateway  the link listener (GATEWAY_LINK_PORT) accepts a TCP connection.
//   agent    nothing local to ask: its health is its heartbeat, which the server watches (the host goes offline after
//            60 s of silence, in the console and to its customers). Exits 0 and says so; compose turns the check off.
// /healthz, not /readyz: a database outage must not get every instance restarted; /readyz is for the load balancer.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const TIMEOUT_MS = 3000;

// PID 1 is Node itself (the entrypoint execs it), or an init such as compose's `init: true` that runs
// `/app/deploy/entrypoint.sh agent`: either names the process by its bundle or by the entrypoint's command word.
function role() {
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    if (args.some((a) => a === 'gateway' || a.endsWith('/apps/agent/dist/gateway.js'))) return 'gateway';
    if (args.some((a) => a === 'agent' || a.endsWith('/apps/agent/dist/main.js'))) return 'agent';
  } catch { /* not readable: the image's default command */ }
  return 'server';
}

async function checkServer() {
  const port = process.env.PORT || '3000';
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = await response.text();
  if (response.status !== 200 || JSON.parse(body).status !== 'ok') throw new Error(`/healthz answered ${response.status} ${body}`);
  return `server: /healthz on port ${port} answered ${body}`;
}

function checkGateway() {
  const port = Number(process.env.GATEWAY_LINK_PORT || 7400);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: TIMEOUT_MS });
    socket.once('connect', () => { socket.destroy(); resolve(`gateway: the link port ${port} accepts connections`); });
    socket.once('timeout', () => { socket.destroy(); reject(new Error(`the link port ${port} did not answer in ${TIMEOUT_MS} ms`)); });
    socket.once('error', reject);
  });
}

const checks = {
  server: checkServer,
  gateway: checkGateway,
  agent: async () => 'agent: no local check; the server watches its heartbeats',
};

const which = role();
try {
  console.log(await checks[which]());
} catch (error) {
  console.error(`unhealthy (${which}): ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
