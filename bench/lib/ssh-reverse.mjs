// The peer bench/gateway.mjs measures the gateway against: `ssh -R`, what phone farms behind NAT use today (ProxySmart's
// way). The farm host runs `ssh -N -R <gatewayHost>:<publicPort>:<agentHost>:<agentPort> user@gateway`; customers
// connect to the gateway machine's port, which its sshd forwards through the one SSH connection to the agent's proxy.
// Here both ends are Debian's OpenSSH on this machine: a private sshd (run as root, its own config, host key and
// authorized_keys in the bench's temp dir, nothing of /etc/ssh read) and the ssh client with OpenSSH's default
// algorithms (-F /dev/null: not even Debian's ssh_config).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnWithLimit, stop, waitForPort, which } from './proxy-procs.mjs';

/** The client's options: no prompt, no known_hosts, no user or system config; fail if a forward cannot be bound. */
function clientOptions(key) {
  return [
    '-F', '/dev/null', '-i', key, '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'ExitOnForwardFailure=yes',
  ];
}

/**
 * Starts sshd on `gatewayHost` (a free port) and `ssh -N -R gatewayHost:<free port>:agentHost:agentPort` for each of
 * `forwards` ({ name: agentPort }). Resolves to { sshd, client, sshPort, ports: { name: publicPort }, negotiated, stop }
 * once every forwarded port accepts connections. `track(child)` is called as soon as each process exists.
 */
export async function startSshReverse({ dir, gatewayHost, agentHost, forwards, track = () => {} }) {
  if (process.getuid?.() !== 0) throw new Error('ssh -R: the private sshd runs as root (it logs root in by key)');
  const sshd = which('sshd');
  const ssh = which('ssh');
  const keygen = which('ssh-keygen');
  if (!sshd || !ssh || !keygen) throw new Error('ssh -R: sshd, ssh or ssh-keygen missing (apt-get install openssh-server openssh-client)');
  // sshd refuses to start without its privilege separation directory, which Debian's service unit creates.
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });

  const hostKey = join(dir, 'ssh_host_ed25519_key');
  const userKey = join(dir, 'id_ed25519');
  for (const key of [hostKey, userKey]) execFileSync(keygen, ['-q', '-t', 'ed25519', '-N', '', '-C', 'cellport-bench', '-f', key]);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, execFileSync(keygen, ['-y', '-f', userKey], { encoding: 'utf8' }));
  const sshPort = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(config, [
    `ListenAddress ${gatewayHost}`, `HostKey ${hostKey}`, `AuthorizedKeysFile ${authorized}`, 'PidFile none',
    'PermitRootLogin prohibit-password', 'PubkeyAuthentication yes', 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no', 'UseDNS no', 'PrintMotd no', 'X11Forwarding no',
    // clientspecified: the client names the address the forwarded port binds (the gateway's customer-facing one).
    'GatewayPorts clientspecified', 'AllowTcpForwarding remote', '',
  ].join('\n'));
  // sshd re-executes itself, so it must be started by its absolute path.
  const sshdChild = spawnWithLimit(sshd, ['-D', '-e', '-f', config, '-p', String(sshPort)]);
  track(sshdChild);
  const sshdLog = collect(sshdChild);
  try {
    await waitForPort(sshPort, 15_000, sshdChild, gatewayHost);
  } catch (err) {
    throw new Error(`sshd did not start: ${err.message}\n${sshdLog()}`);
  }

  const negotiated = probeAlgorithms(ssh, userKey, gatewayHost, sshPort);
  const ports = {};
  const remotes = [];
  for (const [name, agentPort] of Object.entries(forwards)) {
    ports[name] = await freePort();
    remotes.push('-R', `${gatewayHost}:${ports[name]}:${agentHost}:${agentPort}`);
  }
  const client = spawnWithLimit(ssh, ['-N', ...clientOptions(userKey), ...remotes, '-p', String(sshPort), `root@${gatewayHost}`]);
  track(client);
  const clientLog = collect(client);
  try {
    for (const port of Object.values(ports)) await waitForPort(port, 15_000, client, gatewayHost);
  } catch (err) {
    throw new Error(`ssh -R did not forward: ${err.message}\n${clientLog()}\n${sshdLog()}`);
  }
  return {
    sshd: sshdChild, client, sshPort, ports, negotiated,
    stop: async () => { await stop(client); await stop(sshdChild); },
  };
}

/**
 * The algorithms the client and this sshd agree on with their defaults: one short `ssh -v ... true` beside the tunnel
 * (the tunnel's own client runs without -v, whose per-channel debug lines would cost it CPU).
 */
function probeAlgorithms(ssh, key, host, port) {
  const out = spawnSyncText(ssh, ['-v', ...clientOptions(key), '-p', String(port), `root@${host}`, 'true']);
  const pick = (re) => re.exec(out)?.[1] ?? '?';
  return {
    version: pick(/^(OpenSSH_\S+)/m),
    kex: pick(/kex: algorithm: (\S+)/),
    hostKey: pick(/kex: host key algorithm: (\S+)/),
    cipher: pick(/kex: server->client cipher: (\S+)/),
    mac: pick(/kex: server->client cipher: \S+ MAC: (\S+)/),
    compression: pick(/kex: server->client cipher: \S+ MAC: \S+ compression: (\S+)/),
  };
}

/** The -v lines (stderr) of a command that must succeed. */
function spawnSyncText(command, args) {
  const res = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${res.status ?? res.error?.message}): ${res.stderr}`);
  return res.stderr;
}

/** Keeps the first 8 KB of a child's output, for the error that says why it did not start. */
function collect(child) {
  let text = '';
  const add = (d) => { if (text.length < 8192) text += d; };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  return () => text;
}
