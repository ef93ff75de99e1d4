import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOnHost } from './host-build.js';

// The namespace socket addon (namespace-socket.c): TCP sockets made inside a preset's network namespace by the
// agent's own thread. Built on the host on first use against the Node-API header that comes with Node.

export interface NamespaceSockets {
  /** A descriptor of the network namespace at `path` (ip netns: /var/run/netns/<name>); close it with fs.closeSync. */
  openNamespace(path: string): number;
  /**
   * 1..count (at most 64) new unconnected, non-blocking TCP sockets of that namespace, made on one entry into it (fewer
   * when the process ran out of descriptors part-way); throws an Error whose code is the errno's name when none.
   */
  tcpSocketsIn(namespace: number, family: 4 | 6, count: number): number[];
}

/** Where Node's own headers are (Debian's nodejs package and Node's release archives put them there). */
export const nodeHeaders = (): string => join(dirname(process.execPath), '..', 'include', 'node');

let loaded: Promise<NamespaceSockets> | null = null;

/** The addon, built (once per source version) and loaded (once per process). */
export function namespaceSockets(dataDir: string): Promise<NamespaceSockets> {
  loaded ??= (async () => {
    const headers = nodeHeaders();
    if (!existsSync(join(headers, 'node_api.h'))) throw new Error(`the namespace socket maker needs Node's headers (node_api.h), missing in ${headers}`);
    const addon = await buildOnHost(dataDir, 'namespace-socket.c', 'namespace-socket', '.node', ['-shared', '-fPIC', `-I${headers}`],
      `a C compiler and Node's headers in ${headers}`);
    return createRequire(import.meta.url)(addon) as NamespaceSockets;
  })();
  loaded.catch(() => { loaded = null; });
  return loaded;
}
