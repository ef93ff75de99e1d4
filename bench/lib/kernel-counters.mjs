// Kernel counters of a network namespace, for benches that count what a connection waited on rather than time it
// (rates swing with the machine's load; counters do not): TCP's (/proc/net/snmp, /proc/net/netstat: "TcpExt" and
// "Tcp" rows, e.g. TcpExtTWKilled, TcpExtPAWSTimewait, TcpExtTCPSynRetrans) and conntrack's (/proc/net/stat/
// nf_conntrack, one hex row per CPU, summed: ConntrackInsert_failed, ConntrackDrop, ...; ConntrackEntries is the
// namespace's current count).
import { execFileSync } from 'node:child_process';

const read = (ns, file) => execFileSync('ip', ['netns', 'exec', ns, 'cat', file], { encoding: 'utf8' });

/** Every counter of the namespace, by name. */
export function countersOf(ns) {
  const out = {};
  for (const file of ['/proc/net/snmp', '/proc/net/netstat']) {
    const lines = read(ns, file).trim().split('\n');
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const names = lines[i].split(/\s+/);
      const values = lines[i + 1].split(/\s+/);
      const group = names[0].replace(/:$/, '');
      for (let k = 1; k < names.length; k++) out[`${group}${names[k]}`] = Number(values[k]);
    }
  }
  const [head, ...cpus] = read(ns, '/proc/net/stat/nf_conntrack').trim().split('\n').map((l) => l.trim().split(/\s+/));
  head.forEach((name, k) => {
    if (name !== 'entries') out[`Conntrack${name[0].toUpperCase()}${name.slice(1)}`] = cpus.reduce((sum, row) => sum + parseInt(row[k], 16), 0);
  });
  // The namespace's own count (the "entries" column above is the host's).
  out.ConntrackEntries = Number(read(ns, '/proc/sys/net/netfilter/nf_conntrack_count').trim());
  return out;
}

/** after − before, per counter (a gauge such as ConntrackEntries keeps its value after). */
export function deltaOf(before, after) {
  const out = {};
  for (const [name, value] of Object.entries(after)) out[name] = name === 'ConntrackEntries' ? value : value - (before[name] ?? 0);
  return out;
}
