// Processes for bench/proxy.mjs: the peers from Debian (tinyproxy, squid, dante, microsocks) with minimal configs in
// a temp dir, child processes with a raised open-files limit, and their CPU time and RSS read from /proc.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const NOFILE = 65536;

/** Debian packages the bench needs, by the binary that shows each is installed. */
const PACKAGES = { tinyproxy: 'tinyproxy', squid: 'squid', danted: 'dante-server', microsocks: 'microsocks', wrk: 'wrk' };
/** Packages of bench/gateway.mjs's `ssh -R` peer: not in the default list of bench/proxy.mjs. */
const SSH_PACKAGES = { sshd: 'openssh-server', ssh: 'openssh-client', 'ssh-keygen': 'openssh-client' };

export function which(binary) {
  try {
    return execFileSync('bash', ['-c', `command -v ${binary} || ls /usr/sbin/${binary} 2>/dev/null`], { encoding: 'utf8' }).trim().split('\n')[0] || null;
  } catch {
    return null;
  }
}

/**
 * Installs the Debian packages of `binaries` that are missing (apt-get, non-interactive; services are not started by
 * us). With `install: false` (quick mode: .ci/run installs them beforehand) a missing one is an error, never a skip.
 */
export function ensureInstalled(binaries = Object.keys(PACKAGES), { install = true } = {}) {
  const missing = [...new Set(binaries.filter((bin) => !which(bin)).map((bin) => PACKAGES[bin] ?? SSH_PACKAGES[bin]))];
  if (missing.length === 0) return [];
  if (!install) {
    throw new Error(`missing ${missing.join(', ')}: apt-get install ${missing.join(' ')} (.ci/run installs them; the quick mode does not)`);
  }
  console.log(`installing from Debian: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => (process.getuid?.() === 0
    ? execFileSync('apt-get', args, { stdio: 'inherit', env })
    : execFileSync('sudo', ['-n', 'apt-get', ...args], { stdio: 'inherit', env }));
  try {
    run(['install', '-y', '--no-install-recommends', ...missing]);
  } catch {
    run(['update']);
    run(['install', '-y', '--no-install-recommends', ...missing]);
  }
  return missing;
}

/** Versions of the peers, for the record. */
export function versions() {
  const first = (cmd) => {
    try {
      return execFileSync('bash', ['-c', `${cmd} 2>&1 | head -1`], { encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  const deb = (pkg) => first(`dpkg-query -W -f='\${Version}' ${pkg}`);
  return {
    tinyproxy: deb('tinyproxy'), squid: deb('squid'), dante: deb('dante-server'), microsocks: deb('microsocks'), wrk: deb('wrk'),
  };
}

/** A free TCP port on 127.0.0.1 (closed again at once; the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `command args` with the open-files limit raised (root can raise the hard limit; otherwise up to it), in its
 * own process group so stop() ends it and its children. The pid is the command's own (bash execs it).
 */
export function spawnWithLimit(command, args, options = {}) {
  const script = `ulimit -n ${NOFILE} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`;
  return spawn('bash', ['-c', script, 'bash', command, ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, ...options });
}

/** The child's first stdout line, parsed as JSON (its "ready" line); rejects if it exits before. */
export function firstLine(child, what) {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}

/**
 * Runs a command (open-files limit raised) in `cwd` and resolves to its stdout; rejects on a non-zero exit. The child is
 * in `children` while it runs, so the caller's cleanup can kill it.
 */
export function runToEnd(command, args, { cwd, children }) {
  return new Promise((resolve, reject) => {
    const child = spawnWithLimit(command, args, { cwd });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.stdin.end();
    child.once('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ').slice(0, 200)} exited with ${code}: ${err.slice(0, 2000)}`));
    });
  });
}

/** Resolves when something accepts TCP connections on host:port. */
export async function waitForPort(port, timeoutMs = 15_000, child = null, host = '127.0.0.1') {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before listening on ${port}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host, port }, () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends SIGTERM to the child's process group, then SIGKILL if it is still there after `graceMs`. */
export async function stop(child, graceMs = 3000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, graceMs);
  await exited;
  clearTimeout(timer);
  // Children that outlived their parent (a daemon's helpers) are in the same group.
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none left */ }
}

function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** Read and write system calls `pid` has made so far (/proc/<pid>/io: counts, not rates, so a busy machine does not
 * skew them); zeros when the file cannot be read (another user's process). */
export function ioSyscalls(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    return { reads: Number(/syscr: (\d+)/.exec(text)?.[1] ?? 0), writes: Number(/syscw: (\d+)/.exec(text)?.[1] ?? 0) };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

/** The pids of `pid` and all its descendants. */
export function processTree(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(statFields(name)[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch { /* exited meanwhile */ }
  }
  const out = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop();
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * The PostgreSQL server on this machine (its postmaster: a `postgres` process whose parent is not one), or null when
 * the database runs elsewhere. cpuSeconds(pid, true) of it counts every backend, the ones that exited too.
 */
export function localPostgresPid() {
  const comm = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || comm(name) !== 'postgres') continue;
    try {
      if (comm(statFields(name)[1]) !== 'postgres') return Number(name);
    } catch { /* exited meanwhile */ }
  }
  return null;
}

/**
 * CPU seconds (user + system) of a process, and with `tree` of all its descendants too, plus the children it has
 * already waited for (cutime, cstime).
 */
export function cpuSeconds(pid, tree = false) {
  let ticks = 0;
  for (const p of tree ? processTree(pid) : [pid]) {
    try {
      const f = statFields(p);
      // utime stime cutime cstime are fields 14-17 of stat; f[0] is field 3.
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch { /* exited meanwhile */ }
  }
  return ticks / CLK_TCK;
}

/** Resident set size in MB (VmRSS), of one process or its whole tree. */
export function rssMb(pid, tree = false) {
  let kb = 0;
  for (const p of tree ? processTree(pid) : [pid]) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch { /* exited meanwhile */ }
  }
  return kb / 1024;
}

/** A process's soft limit on open files (RLIMIT_NOFILE), from /proc/<pid>/limits. */
export function fdLimit(pid) {
  const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return m && m[1] !== 'unlimited' ? Number(m[1]) : Infinity;
}

/** Number of open file descriptors of a process. */
export function openFds(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return -1;
  }
}

// ---- the peers ----------------------------------------------------------------------------------------------------

/**
 * Starts one peer on 127.0.0.1:port, its outgoing connections bound to `egress` like ours. Returns
 * { name, child, port, auth } where `auth` says whether it asks for the credentials. `track(child)` is called as soon
 * as the process exists.
 */
export async function startPeer(name, { dir, port, egress, user, pass, track = () => {} }) {
  let child;
  let auth = true;
  if (name === 'tinyproxy') {
    const conf = join(dir, 'tinyproxy.conf');
    writeFileSync(conf, [
      'User nobody', 'Group nogroup', `Port ${port}`, 'Listen 127.0.0.1', `Bind ${egress}`, 'Timeout 600',
      'MaxClients 4096', `LogFile "${join(dir, 'tinyproxy.log')}"`, 'LogLevel Critical', `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      `BasicAuth ${user} ${pass}`, '',
    ].join('\n'));
    child = spawnWithLimit(which('tinyproxy'), ['-d', '-c', conf]);
  } else if (name === 'squid') {
    const hash = execFileSync('openssl', ['passwd', '-1', pass], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'squid.passwd'), `${user}:${hash}\n`);
    const conf = join(dir, 'squid.conf');
    writeFileSync(conf, [
      `http_port 127.0.0.1:${port}`,
      `pid_filename ${join(dir, 'squid.pid')}`,
      `cache_log ${join(dir, 'squid-cache.log')}`,
      'access_log none', 'cache_store_log none', 'cache deny all', 'cache_mem 8 MB', `coredump_dir ${dir}`,
      'pinger_enable off', 'shutdown_lifetime 0 seconds', 'max_filedescriptors 65536', 'cache_effective_user proxy',
      `auth_param basic program /usr/lib/squid/basic_ncsa_auth ${join(dir, 'squid.passwd')}`,
      'auth_param basic children 2', 'auth_param basic credentialsttl 2 hours',
      'acl authed proxy_auth REQUIRED',
      'http_access allow authed', 'http_access deny all',
      `tcp_outgoing_address ${egress}`,
      `netdb_filename none`,
      '',
    ].join('\n'));
    child = spawnWithLimit(which('squid'), ['-N', '-f', conf]);
  } else if (name === 'dante') {
    // dante's username method checks the system's own accounts (or PAM); the bench adds no system user, so dante
    // runs without authentication.
    auth = false;
    const conf = join(dir, 'danted.conf');
    writeFileSync(conf, [
      `logoutput: ${join(dir, 'danted.log')}`,
      `internal: 127.0.0.1 port = ${port}`,
      `external: ${egress}`,
      'clientmethod: none', 'socksmethod: none',
      'user.privileged: root', 'user.unprivileged: nobody',
      'client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }',
      'socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 command: connect }',
      '',
    ].join('\n'));
    child = spawnWithLimit(which('danted'), ['-f', conf, '-p', join(dir, 'danted.pid')]);
  } else if (name === 'microsocks') {
    child = spawnWithLimit(which('microsocks'), ['-i', '127.0.0.1', '-p', String(port), '-u', user, '-P', pass, '-b', egress]);
  } else {
    throw new Error(`unknown peer ${name}`);
  }
  track(child); // so the caller can stop it even if it never starts listening
  let stderr = '';
  child.stderr.on('data', (d) => { if (stderr.length < 4000) stderr += d; });
  child.stdout.resume();
  try {
    await waitForPort(port, 15_000, child);
  } catch (err) {
    await stop(child);
    throw new Error(`${name} did not start: ${err.message}\n${stderr}`);
  }
  return { name, child, port, auth };
}
